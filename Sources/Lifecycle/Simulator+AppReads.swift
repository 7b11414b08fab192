import JSON

// `AppServices`' reads of single fields of the state. Each reads the fields it needs: calling
// a method of `state` from here would copy the whole struct first.
extension Simulator {
  public var sceneLabel: String? { state.scenes.last?.label }
  public var orientation: Orientation { state.orientation }
  public var applicationState: ApplicationState { state.applicationState }
  public var protectedDataAvailable: Bool { state.protectedDataAvailable }

  public func isAvailable(_ protection: DataProtection) -> Bool {
    protection.isAvailable(firstUnlockPending: state.firstUnlockPending, protectedDataAvailable: state.protectedDataAvailable)
  }

  /// `LifecycleState.readableStoredValue(key)`.
  public func readableStoredValue(_ key: String) -> JSONValue? {
    isAvailable(state.storeProtection[key] ?? .untilFirstUnlock) ? state.store[key] : nil
  }
}
