import JSON

/// A callback named in `expect_calls{…}`: a key (`viewDidLoad`), a full
/// signature (`viewDidLoad()`), optionally after a receiver:
/// `NoteList.viewDidLoad` (any instance of the class), `NoteList#2.viewDidLoad`
/// (one instance), `AppDelegate.…`, `SceneDelegate.…`. A bare key the two delegates share
/// (`continueUserActivity`) matches either; `SceneDelegate.continueUserActivity` or the full
/// signature matches one. `Scene#2.` before any of these keeps the callbacks delivered for that
/// scene (`Scene#2.sceneDidBecomeActive`, `Scene#2.Editor.viewDidAppear`).
public struct CallPattern: Equatable, Sendable {
  public private(set) var text: String
  public let callback: Callback
  /// nil: any receiver.
  public let receiver: String?
  /// `Scene#n`: only callbacks delivered for that scene; nil: any.
  public let scene: String?
  /// A bare key: any callback with that key matches (both delegates' for a shared key).
  private var anyDelegate = false

  public init(_ text: String) throws(ScenarioError) {
    guard text.lowercased().hasPrefix("scene#") else {
      try self.init(text, scene: nil)
      return
    }
    guard let dot = text.firstIndex(of: "."), let scene = SceneID(label: String(text[..<dot])),
          scene.number >= 1, scene.number <= Self.sceneNumberMax else {
      throw ScenarioError("\"\(text)\": a scene is named Scene#n. before the callback, n from 1 (\"Scene#2.sceneDidBecomeActive\")")
    }
    try self.init(String(text[text.index(after: dot)...]), scene: scene.description)
    self.text = text
  }

  private init(_ text: String, scene: String?) throws(ScenarioError) {
    self.text = text
    self.scene = scene
    if let cb = Self.callback(named: text) {
      callback = cb; receiver = nil; anyDelegate = text == cb.key; return
    }
    // The receiver ends at the first dot the name of a callback follows (a BGTask's receiver,
    // `BGTask#com.example.refresh`, has dots of its own).
    var dot = text.firstIndex(of: ".")
    while let d = dot, Self.callback(named: String(text[text.index(after: d)...])) == nil {
      dot = text[text.index(after: d)...].firstIndex(of: ".")
    }
    guard let dot, let cb = Self.callback(named: String(text[text.index(after: dot)...])) else {
      let name = text.split(separator: ".").last.map(String.init) ?? text
      let receiver = text.split(separator: ".").dropLast().joined(separator: ".")
      // A name that is no callback, after a receiver, is most likely one of its user actions.
      let near = nearest(name, in: Callback.allCases.map(\.key)).map { " (did you mean \($0)?)" }
        ?? (receiver.isEmpty ? "" : "; user actions, whatever their names, are the callback action(_:): \"\(receiver).actions\"")
      throw ScenarioError("unknown callback \"\(text)\"\(near)")
    }
    receiver = String(text[..<dot])
    // `SceneDelegate.continueUserActivity`: the scene delegate's method of that shared key.
    let owner: Callback.Receiver? = receiver == "AppDelegate" ? .appDelegate : receiver == "SceneDelegate" ? .sceneDelegate : nil
    callback = owner.flatMap { Callback.named(cb.key, receiver: $0) } ?? cb
  }

  /// The largest scene number a pattern may name.
  static let sceneNumberMax = 1_000_000

  private static func callback(named name: String) -> Callback? {
    Callback(rawValue: name).flatMap { $0.key == name ? $0 : nil } ?? Callback(signature: name)
  }

  /// Whether a callback this pattern names can ever be delivered on `profile`
  /// (`Callback.canBeDelivered(on:)`; a bare shared key: either delegate's).
  public func canMatch(on profile: Profile) -> Bool {
    let named = anyDelegate ? Callback.allCases.filter { $0.key == callback.key } : [callback]
    return named.contains { $0.canBeDelivered(on: profile) }
  }

  public func matches(_ call: CallRecord) -> Bool {
    guard call.callback == callback || (anyDelegate && call.callback.key == callback.key) else { return false }
    if let scene, call.scene != scene { return false }
    guard let receiver else { return true }
    if receiver.contains("#") { return call.target == receiver }
    return call.target == receiver || call.target.hasPrefix(receiver + "#")
  }
}

/// The names expectation events carry in the log (the scenario verbs that made them).
public enum ExpectationName {
  public static let state = "expect_state"
  public static let calls = "expect_calls"
  public static let noCalls = "expect_no_calls"
  public static let terminated = "expect_terminated"
  public static let condition = "expect"
  public static let diagnostic = "expect_diagnostic"
}

extension Simulator {
  /// `expect_state(s, n)`: scene `Scene#n`'s state (active, inactive, background, or unattached
  /// when not connected). It names the scene as the log does, in connection order; the window
  /// verbs name windows (`SceneSession.number`), which keep their number across scenes.
  public func expectSceneState(_ expected: SceneActivation, scene n: Int, at: String? = nil) {
    let label = SceneState.label(number: n)
    guard n >= 1, n <= state.scenesConnected else {
      return emit(.expectationChecked(name: ExpectationName.state, passed: false,
                                      message: "expected \(label) \(expected.luaName), but no \(label) has connected", at: at))
    }
    let actual = state.scenes.first { $0.label == label }?.activation ?? .unattached
    let passed = actual == expected
    emit(.expectationChecked(name: ExpectationName.state, passed: passed,
                 message: passed ? "\(label) is \(actual.luaName)" : "expected \(label) \(expected.luaName), but it is \(actual.luaName)",
                 at: at))
  }

  /// `expect_state(s)`.
  public func expectState(_ expected: AppState, at: String? = nil) {
    let actual = state.appState
    let passed = actual == expected
    emit(.expectationChecked(name: ExpectationName.state, passed: passed,
                 message: passed ? "state is \(actual.rawValue)" : "expected state \(expected.rawValue), but the app is \(actual.rawValue)",
                 at: at))
  }

  /// `expect_calls{…}`: among the callbacks of the expectation window (see
  /// `LifecycleState.expectationWindowCalls`), the ones these patterns name occur exactly in this order
  /// (others are ignored). `window`: the verbs the window covered (`home() at line 9 through
  /// advance(5) at line 11`), which a failure names.
  public func expectCalls(_ patterns: [CallPattern], at: String? = nil, window: String? = nil) {
    let expected = patterns.map(\.text).joined(separator: ", ")
    if state.expectationWindowOverflowed { return failOverflowed(ExpectationName.calls, at: at) }
    let relevant = state.expectationWindowCalls.filter { call in patterns.contains { $0.matches(call) } }
    let passed = relevant.count == patterns.count && zip(patterns, relevant).allSatisfy { $0.matches($1) }
    let got = relevant.map(named).joined(separator: ", ")
    emit(.expectationChecked(name: ExpectationName.calls, passed: passed,
                 message: passed ? "calls \(expected)"
                   : Self.covered(window) + "expected calls \(expected); got \(got.isEmpty ? "none" : got)",
                 at: at))
  }

  /// `expect_no_calls{…}`: none of these callbacks in the expectation window. Returns the
  /// patterns no callback of this run's profile can match (`CallPattern.canMatch(on:)`): the
  /// expectation holds vacuously for them, and its message says so.
  @discardableResult
  public func expectNoCalls(_ patterns: [CallPattern], at: String? = nil, window: String? = nil) -> [CallPattern] {
    if state.expectationWindowOverflowed {
      failOverflowed(ExpectationName.noCalls, at: at)
      return []
    }
    let offending = state.expectationWindowCalls.filter { call in patterns.contains { $0.matches(call) } }
    let passed = offending.isEmpty
    let names = patterns.map(\.text).joined(separator: ", ")
    let vacuous = patterns.filter { !$0.canMatch(on: profile) }
    let vacuity = vacuous.isEmpty ? ""
      : " (vacuous for \(vacuous.map(\.text).joined(separator: ", ")): never called on \(Callback.profileName(profile)))"
    emit(.expectationChecked(name: ExpectationName.noCalls, passed: passed,
                 message: passed ? "no calls of \(names)\(vacuity)"
                   : Self.covered(window) + "unexpected calls: \(offending.map(named).joined(separator: ", "))",
                 at: at))
    return vacuous
  }

  /// A call as a failed expectation names it (`SceneDelegate.sceneDidBecomeActive`), after its
  /// scene once the app has had several at once (`Scene#2.SceneDelegate.sceneDidBecomeActive`).
  private func named(_ call: CallRecord) -> String {
    (state.severalScenesSeen ? call.scene.map { "\($0)." } ?? "" : "") + "\(call.target).\(call.callback.key)"
  }

  /// `covered home() at line 9 through advance(5) at line 11: `, what a failed call expectation starts with.
  private static func covered(_ window: String?) -> String { window.map { "covered \($0): " } ?? "" }

  /// A call expectation over a window that dropped callbacks cannot be checked: it fails, never passes by accident.
  private func failOverflowed(_ name: String, at: String?) {
    emit(.expectationChecked(name: name, passed: false,
                 message: "more than \(LifecycleState.expectationWindowMax) callbacks since the window opened; "
                   + "check them in smaller steps (an expectation after each verb)",
                 at: at))
  }

  /// `expect_terminated(reason)`: the app is not running and its last termination had this reason (nil: any).
  public func expectTerminated(_ reason: TerminationReason?, at: String? = nil) {
    let last = state.terminations.last
    let passed = state.process == .notRunning && last != nil && (reason == nil || last?.reason == reason)
    let wanted = reason.map { "terminated (\($0.rawValue))" } ?? "terminated"
    let actual = state.process == .notRunning
      ? (last.map { "terminated (\($0.reason.rawValue))" } ?? "never launched")
      : state.appState.rawValue
    emit(.expectationChecked(name: ExpectationName.terminated, passed: passed,
                 message: passed ? "app \(actual)" : "expected the app \(wanted), but it is \(actual)", at: at))
  }

  /// `expect(cond, message)`.
  public func expect(_ condition: Bool, _ message: String, at: String? = nil) {
    emit(.expectationChecked(name: ExpectationName.condition, passed: condition, message: message, at: at))
  }

  /// The trailer's outcome: final state, terminations, expectations, stored data, and the
  /// fault terminations no `expect_terminated` named (only when there are some).
  public func outcome(error: String? = nil, stopped: String? = nil) -> JSONValue {
    Self.outcome(of: state, error: error, stopped: stopped)
  }

  /// The trailer's outcome: `error` is the script error that stopped the run, `stopped` why a run
  /// that failed on a fault ended early (each only when present, so other runs keep their bytes).
  public static func outcome(of state: LifecycleState, error: String? = nil, stopped: String? = nil) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("state", .string(state.appState.rawValue)),
      ("terminations", .array(state.terminations.map { t in
        var m: [(String, JSONValue)] = [("reason", .string(t.reason.rawValue))]
        if let code = t.code { m.append(("code", .string(code))) }
        m.append(("description", .string(t.description)))
        return .object(m)
      })),
      ("expectations", .object([("passed", .int(Int64(state.expectationsPassed))),
                                ("failed", .int(Int64(state.expectationsFailed)))])),
      ("stored", .object(state.store.keys.sorted().map { ($0, state.store[$0]!) })),
    ]
    if !state.unexpectedFaults.isEmpty {
      members.append(("unexpected_terminations", .array(state.unexpectedFaults.map { .string($0.reason.rawValue) })))
    }
    if !state.diagnostics.isEmpty { members.append(("diagnostics", .array(state.diagnostics.map(\.json)))) }
    if let error { members.append(("error", .string(error))) }
    if let stopped { members.append(("stopped", .string(stopped))) }
    return .object(members)
  }
}
