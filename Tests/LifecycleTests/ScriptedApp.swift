import JSON
@testable import Lifecycle

/// A scripted double of the app: handlers keyed by callback key (or `Class.key`), each
/// doing app calls through the services handed over with each job, as ScriptHost would from Lua.
final class ScriptedApp: AppDriver {
  typealias Handler = (Simulator) throws -> Void
  var layout: AppLayout
  var handlers: [String: Handler] = [:]
  /// What the handler of a key (as in `handlers`) returns, for callbacks whose return UIKit
  /// reads; a key here is implemented even with no entry in `handlers`.
  var returns: [String: JSONValue] = [:]
  var expirations: [Int: Handler] = [:]
  /// Each controller class's `restorationIdentifier` (docs/model.md §14); absent: none.
  var restorationIdentifiers: [String: String] = [:]
  var controllers: Set<String>
  /// User actions (`act`) by controller class, then action name.
  var actions: [String: [String: Handler]] = [:]
  private(set) var processes = 0
  /// The scene activation requests UIKit told the double it had answered, in order.
  private(set) var answeredSceneRequests: [Int] = []
  /// Steps of host work the double allows before its guard stops it (nil: no guard).
  var hostWorkSteps: Int?

  func sceneRequestAnswered(_ number: Int) { answeredSceneRequests.append(number) }

  func hostWorkMayContinue() -> Bool {
    guard let steps = hostWorkSteps else { return true }
    hostWorkSteps = steps - 1
    return steps > 0
  }

  /// The double's deployment target is iOS 12: its handlers serve every profile, so it gets no
  /// handler diagnostics unless a test gives it a later one.
  init(layout: AppLayout = AppLayout(name: "Notes", roots: ["NoteList"], container: .navigation, minimumIOS: 12),
       controllers: Set<String> = ["NoteList", "Detail", "Sheet", "Feed", "Cart"]) {
    self.layout = layout
    self.controllers = controllers
  }

  func startProcess(services: AppServices) -> Result<AppLayout, AppFault> { processes += 1; return .success(layout) }
  func endProcess() {}
  func declares(controller name: String) -> Bool { controllers.contains(name) }
  func actions(of controller: String) -> [String] { (actions[controller] ?? [:]).keys.sorted() }
  func declaredLayout() -> AppLayout { layout }
  func restorationIdentifier(ofController name: String) -> String? { restorationIdentifiers[name] }

  private func handler(_ cb: Callback, _ target: String) -> Handler? {
    if cb == .expirationHandler, BGTaskLabel.identifier(of: target) == nil { return expirations[Int(target.split(separator: "#").last!)!] }
    let cls = target.split(separator: "#").first.map(String.init) ?? target
    return handlers["\(cls).\(cb.key)"] ?? handlers[cb.key]
  }

  private func returned(_ cb: Callback, _ target: String) -> JSONValue? {
    let cls = target.split(separator: "#").first.map(String.init) ?? target
    return returns["\(cls).\(cb.key)"] ?? returns[cb.key]
  }

  func implements(_ callback: Callback, target: String) -> Bool {
    handler(callback, target) != nil || returned(callback, target) != nil
  }

  func run(_ job: AppJob, services: AppServices) -> Result<JSONValue?, AppFault> {
    guard let sim = services as? Simulator else { return .success(nil) }
    let h: Handler?
    var value: JSONValue?
    switch job {
    case let .callback(.userAction, target, arguments):
      h = UserAction.call(in: arguments.payload).flatMap { actions[InstanceLabel.className(target)]?[$0.name] }
    case let .callback(cb, target, _):
      h = handler(cb, target)
      value = cb.returnsValue ? returned(cb, target) : nil
    case let .expiration(task): h = expirations[task]
    case .notification, .after: h = nil
    }
    do { try h?(sim) } catch { return .failure(.processEnded) }
    return .success(value)
  }
}
