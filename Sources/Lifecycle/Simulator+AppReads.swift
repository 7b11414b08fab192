import EventStore

// `AppServices`' reads of single fields of the state, answered without copying it.
extension Simulator {
  public var sceneLabel: String? { state.sceneLabel }
  public var orientation: Orientation { state.orientation }
  public var applicationState: ApplicationState { state.applicationState }
  public var protectedDataAvailable: Bool { state.protectedDataAvailable }
  public func isAvailable(_ protection: DataProtection) -> Bool { state.isAvailable(protection) }
  public func readableStoredValue(_ key: String) -> JSONValue? { state.readableStoredValue(key) }
}
