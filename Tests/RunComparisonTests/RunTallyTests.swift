import RunComparison
import Testing

/// What `lifesim test --compare` counts in each run: callbacks by key, diagnostics by code.
@Suite struct RunTallyTests {
  private func callback(_ name: String, _ target: String = "AppDelegate") -> Recorded {
    Recorded(t: 0, kind: .callback, fields: [("name", .string(name)), ("target", .string(target)),
                                            ("handled", .bool(false)), ("depth", .int(0))])
  }

  private func diagnostic(_ code: String) -> Recorded {
    Recorded(t: 0, kind: .note, fields: [("name", .string("diagnostic")), ("message", .string("m")), ("code", .string(code))])
  }

  @Test func countsCallbacksByKeyAndNotesByCodeInTheOrderTheyFirstOccur() throws {
    let a = try RunTally(reading: try writeLog("tally-a", [
      callback("applicationDidBecomeActive(_:)"), callback("viewDidLoad()", "Main#1"), .note("no code"),
    ]))
    let b = try RunTally(reading: try writeLog("tally-b", [
      callback("sceneDidBecomeActive(_:)", "SceneDelegate"), diagnostic("handler_never_called"), callback("viewDidLoad()", "Main#1"),
      callback("viewDidLoad()", "Main#2"), diagnostic("deprecated_in_sdk"), diagnostic("handler_never_called"), .note("no code"),
    ]))
    #expect(b.callbacks.more(than: a.callbacks).map { "\($0.0) \($0.1)" } == ["sceneDidBecomeActive 1", "viewDidLoad 1"])
    #expect(a.callbacks.more(than: b.callbacks).map { "\($0.0) \($0.1)" } == ["applicationDidBecomeActive 1"])
    #expect(b.diagnostics.more(than: a.diagnostics).map { "\($0.0) \($0.1)" } == ["handler_never_called 2", "deprecated_in_sdk 1"])
    #expect(a.diagnostics.names.isEmpty)
  }
}
