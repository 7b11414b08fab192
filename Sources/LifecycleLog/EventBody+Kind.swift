import EventStore
import Lifecycle

extension EventBody {
  /// The log kind this event is written as.
  public var kind: EventKind {
    switch self {
    case .inputPerformed: return .input
    case .applicationStateChanged, .sceneActivationChanged, .sceneConnected, .sceneDisconnected, .sceneSessionChanged, .rootBuilt,
         .pushed, .popped, .presented, .dismissed, .tabSelected, .protectedDataChanged, .restorationChanged:
      return .transition
    case .processStarted, .launchContinued, .suspended, .resumed, .terminated: return .system
    case .callbackDelivered: return .callback
    case .returned: return .return
    case .appCalled: return .call
    case .notificationPosted: return .notification
    case .crashed: return .crash
    case .expectationChecked: return .expect
    case .noted: return .note
    }
  }
}
