import Testing
@testable import Lifecycle
import LifecycleLog

/// A run of the model that must account for every event it produces, like TCA's `TestStore`.
///
/// The events that say what happened — callbacks, notifications and system events (a process
/// started or continued, suspended, resumed, terminated, a crash, a note, an expectation) — are
/// each claimed by an `expect…` call, in order, or skipped on purpose with
/// `skipRemainingEvents()`. When the harness goes away it records an issue in the running test
/// for every one left unclaimed, and another if replaying all events through the log's JSON
/// form does not rebuild the live state whole.
///
/// Not claimed one by one: the inputs (the test performed them), app calls (the test's
/// `ScriptedApp` made them), returns (one per handled callback) and transitions; the state
/// they fold into is what the replay check compares.
final class Harness {
  let sim: Simulator
  let app: ScriptedApp
  private let box: Box
  private let createdAt: SourceLocation
  /// Index of the first event each `expect…` has not yet looked at.
  private var callsFrom = 0, notificationsFrom = 0, systemFrom = 0

  private final class Box { var events: [Event] = [] }

  init(ios: Int = 17, scenes: Bool? = nil, sdk: Int? = nil, app: ScriptedApp = ScriptedApp(), knobs: (inout Profile) -> Void = { _ in },
       sourceLocation: SourceLocation = #_sourceLocation) {
    var profile = Profile(ios: ios, scenes: scenes, sdk: sdk)
    knobs(&profile)
    self.app = app
    let box = Box()
    sim = Simulator(profile: profile, driver: app) { box.events.append($0) }
    self.box = box
    createdAt = sourceLocation
  }

  deinit {
    let left = unclaimedEvents()
    if !left.isEmpty {
      Issue.record("events left unasserted (\(left.count)):\n\(left.joined(separator: "\n"))", sourceLocation: createdAt)
    }
    if let problem = replayProblem() { Issue.record(Comment(rawValue: problem), sourceLocation: createdAt) }
  }

  func perform(_ inputs: Input...) throws {
    for i in inputs { try sim.perform(i) }
  }

  /// Every event so far, with its time, for inspection (reading it claims nothing).
  var allEvents: [Event] { box.events }

  // MARK: - Claiming events

  /// The callbacks since the previous `expectCalls` are exactly `calls` (`Target.signature`).
  func expectCalls(_ calls: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(take(&callsFrom, Self.call) == calls, sourceLocation: sourceLocation)
  }

  /// The notifications posted since the previous `expectNotifications` are exactly `names`.
  func expectNotifications(_ names: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(take(&notificationsFrom, Self.notification) == names, sourceLocation: sourceLocation)
  }

  /// The system events since the previous `expectSystem` are exactly `events`, written as
  /// `Harness.system` writes them (`"suspended"`, `"terminated user: force quit …"`).
  func expectSystem(_ events: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(take(&systemFrom, Self.system) == events, sourceLocation: sourceLocation)
  }

  /// The named escape hatch: the events so far are not this test's subject (a launch pinned by
  /// another test, or a test about one fragment). Each use is deliberate and visible.
  func skipRemainingEvents() {
    callsFrom = box.events.count; notificationsFrom = box.events.count; systemFrom = box.events.count
  }

  private func take(_ from: inout Int, _ describe: (EventBody) -> String?) -> [String] {
    let new = box.events[from...].compactMap { describe($0.body) }
    from = box.events.count
    return new
  }

  /// What is still unclaimed, each as its `expect…` would write it.
  func unclaimedEvents() -> [String] {
    box.events[callsFrom...].compactMap { Self.call($0.body).map { "call " + $0 } }
      + box.events[notificationsFrom...].compactMap { Self.notification($0.body).map { "notification " + $0 } }
      + box.events[systemFrom...].compactMap { Self.system($0.body).map { "system " + $0 } }
  }

  // MARK: - How each kind is written

  static func call(_ body: EventBody) -> String? {
    if case let .callbackDelivered(cb, target, _, _, _) = body { return "\(target).\(cb.signature)" }
    return nil
  }

  static func notification(_ body: EventBody) -> String? {
    if case let .notificationPosted(name, _, _) = body { return name }
    return nil
  }

  static func system(_ body: EventBody) -> String? {
    switch body {
    case let .processStarted(mode, state): return "started \(mode.rawValue), \(state.rawValue)"
    case let .launchContinued(state): return "continued \(state.rawValue)"
    case .suspended: return "suspended"
    case .resumed: return "resumed"
    case let .terminated(t): return "terminated \(t.reason.rawValue)\(t.code.map { " " + $0 } ?? ""): \(t.description)"
    case let .crashed(name, target, message, _): return "crash in \(name) on \(target): \(message)"
    case let .noted(name, message, code): return "note \(name): \(message)" + (code.map { " [\($0)]" } ?? "")
    case let .expectationChecked(name, passed, message, _): return "\(name) \(passed ? "passed" : "failed"): \(message)"
    case .inputPerformed, .applicationStateChanged, .sceneActivationChanged, .sceneConnected, .sceneDisconnected, .sceneSessionChanged, .rootBuilt,
         .pushed, .popped, .presented, .dismissed, .tabSelected, .protectedDataChanged, .restorationChanged, .callbackDelivered, .returned, .appCalled,
         .notificationPosted:
      return nil
    }
  }

  // MARK: - Replay

  /// Whether replay rebuilds the live state (the invariant suite asks after each run).
  func replayMatches() throws -> Bool { replayProblem() == nil }

  /// Replaying the events (through the log's JSON form) rebuilds the live state exactly; nil
  /// when it does, else what differs.
  func replayProblem() -> String? {
    var s = LifecycleState()
    for (i, e) in box.events.enumerated() {
      let decoded: Event
      do { decoded = try Event(e.logEvent(seq: Int64(i + 1))) } catch {
        return "replay: event \(i + 1) does not decode: \(error)"
      }
      guard decoded == e else { return "replay: event \(i + 1) decodes differently: \(e) became \(decoded)" }
      s.evolve(decoded)
    }
    return s == sim.state ? nil : "replay: folding the \(box.events.count) decoded events does not rebuild the live state"
  }
}
