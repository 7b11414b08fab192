import JSON
@testable import Lifecycle

/// The app calls the scripted doubles make, spelled as the app would: each is one
/// `Simulator.handle(_:at:)`, the model's single entry point for app calls.
extension Simulator {
  func work(us: Int64) throws(ProcessEnded) { try call(.work(us: us)) }

  func beginBackgroundTask(name: String) throws(ProcessEnded) -> Int {
    guard let id = try call(.beginBackgroundTask(name: name)) else { throw ProcessEnded() }
    return id
  }

  func endBackgroundTask(_ id: Int) throws(ProcessEnded) { try call(.endBackgroundTask(id)) }
  func store(key: String, value: JSONValue?) throws(ProcessEnded) { try call(.store(key: key, value: value)) }
  func complete(_ id: Int) throws(ProcessEnded) { try call(.complete(id)) }
  func appPush(_ cls: String) throws(AppCallError) { try handle(.push(cls)) }
  func appPop() throws(AppCallError) { try handle(.pop) }
  func appPresent(_ cls: String, style: PresentationStyle?, navigation: Bool) throws(AppCallError) {
    try handle(.present(cls, style: style, navigation: navigation))
  }

  /// The calls that cannot be refused, only cut short by the process ending.
  @discardableResult
  private func call(_ request: AppRequest) throws(ProcessEnded) -> Int? {
    do { return try handle(request) } catch { throw ProcessEnded() }
  }
}

