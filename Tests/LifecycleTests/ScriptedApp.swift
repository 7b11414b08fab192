import EventStore
@testable import Lifecycle

/// A scripted double of the app: handlers keyed by callback key (or `Class.key`), each
/// doing app calls through the simulator, as ScriptHost would from Lua.
final class ScriptedApp: AppDriver {
  typealias Handler = (Simulator) throws -> Void
  var layout: AppLayout
  var handlers: [String: Handler] = [:]
  var expirations: [Int: Handler] = [:]
  var controllers: Set<String>
  weak var simulator: Simulator?
  private(set) var processes = 0

  init(layout: AppLayout = AppLayout(name: "Notes", roots: ["NoteList"], container: .navigation),
       controllers: Set<String> = ["NoteList", "Detail", "Sheet", "Feed", "Cart"]) {
    self.layout = layout
    self.controllers = controllers
  }

  func startProcess() -> Result<AppLayout, AppFault> { processes += 1; return .success(layout) }
  func endProcess() {}
  func declares(controller name: String) -> Bool { controllers.contains(name) }

  private func handler(_ cb: Callback, _ target: String) -> Handler? {
    if cb == .expirationHandler { return expirations[Int(target.split(separator: "#").last!)!] }
    let cls = target.split(separator: "#").first.map(String.init) ?? target
    return handlers["\(cls).\(cb.key)"] ?? handlers[cb.key]
  }

  func implements(_ callback: Callback, target: String) -> Bool { handler(callback, target) != nil }

  func run(_ job: AppJob) -> AppFault? {
    guard let sim = simulator else { return nil }
    let h: Handler?
    switch job {
    case let .callback(cb, target, _, _): h = handler(cb, target)
    case let .expiration(task): h = expirations[task]
    case .notification, .after: h = nil
    }
    do { try h?(sim) } catch { return .processEnded }
    return nil
  }
}

/// A run of the model with its recorded events, checked for replay after every test.
final class Harness {
  let sim: Simulator
  let app: ScriptedApp

  init(ios: Int = 17, scenes: Bool? = nil, app: ScriptedApp = ScriptedApp(), knobs: (inout Profile) -> Void = { _ in }) {
    var profile = Profile(ios: ios, scenes: scenes)
    knobs(&profile)
    self.app = app
    let box = Box()
    sim = Simulator(profile: profile, driver: app) { box.events.append($0) }
    app.simulator = sim
    self.box = box
  }

  private let box: Box
  private final class Box { var events: [Event] = [] }

  func perform(_ inputs: Input...) throws {
    for i in inputs { try sim.perform(i) }
  }

  /// Full signatures (with targets) of the callbacks since the last call of `take`.
  func takeCalls() -> [String] {
    let new = box.events[consumed...]
    consumed = box.events.count
    return new.compactMap { e in
      if case let .callback(cb, target, _, _, _, _) = e.body { return "\(target).\(cb.signature)" }
      return nil
    }
  }

  /// Every event since the last `takeEvents`.
  func takeEvents() -> [EventBody] {
    let new = box.events[consumedEvents...]
    consumedEvents = box.events.count
    return new.map(\.body)
  }

  private var consumed = 0
  private var consumedEvents = 0

  var allEvents: [Event] { box.events }

  /// Replaying the events (through the log's JSON form) rebuilds the live state exactly.
  func replayMatches() throws -> Bool {
    var s = LifecycleState()
    for (i, e) in box.events.enumerated() {
      let decoded = try Event(e.logEvent(seq: Int64(i + 1)))
      guard decoded == e else { return false }
      s.evolve(decoded)
    }
    return s == sim.state
  }
}
