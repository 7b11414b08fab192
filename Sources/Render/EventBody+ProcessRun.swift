import Lifecycle

extension EventBody {
  /// The process stops running with this event (the background-time counter holds from here).
  package var endsProcessRun: Bool {
    switch self {
    case .suspended, .terminated, .crashed: return true
    case .inputPerformed, .applicationStateChanged, .sceneActivationChanged, .sceneConnected, .sceneDisconnected, .sceneSessionChanged, .rootBuilt,
         .pushed, .popped, .presented, .dismissed, .tabSelected, .protectedDataChanged, .restorationChanged, .processStarted, .launchContinued,
         .resumed, .callbackDelivered, .returned, .appCalled, .notificationPosted, .expectationChecked, .noted:
      return false
    }
  }
}
