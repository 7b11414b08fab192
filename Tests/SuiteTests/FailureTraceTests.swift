import Foundation
import Suite
import Testing

/// A failing case's trace comes from its log (kept, or temporary and removed), never from events
/// held in memory: the renderer gets a path.
@Suite struct FailureTraceTests {
  private func failingSuite(_ name: String, failureAt line: String) throws -> String {
    try scriptFolder(name, [
      "app.lua": tinyApp,
      "fails.lua": """
        scenario { name = "fails", ios = 17, scenes = true, app = "app.lua" }
        launch()
        \(line)
        home()
        launch()
        """,
    ])
  }

  @Test func aFailureIsRenderedFromATemporaryLogThatIsThenRemoved() throws {
    let dir = try failingSuite("temporary", failureAt: #"expect_state("background")"#)
    let calls = RenderCalls()
    let temporary = try emptyFolder("temporary-logs")
    let results = try runSuite([dir], temporary: temporary, renderer: calls.renderer)
    let call = try #require(calls.calls.first)
    #expect(calls.calls.count == 1)
    #expect(call.path.hasPrefix(temporary + "/.lifesim-"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [])
    // The whole log was there when the trace was rendered; it is gone now.
    #expect(call.events == results[0].events)
    #expect(!FileManager.default.fileExists(atPath: call.path))
    #expect(call.path.hasSuffix(".partial.lifelog"))
    let failed = try #require(results.first)
    #expect(failed.status == .failed)
    #expect(failed.message == "expect_state: expected state background, but the app is active")
    #expect(failed.at == "\(dir)/fails.lua:3")
    #expect(call.seqs.count == 12)
    #expect(failed.trace == call.seqs.map { "#\($0)" })
    #expect(failed.logPath == nil)
  }

  @Test func aScriptErrorShowsTheLastElevenEventsOfItsLog() throws {
    let dir = try failingSuite("error", failureAt: #"error("boom")"#)
    let calls = RenderCalls()
    let results = try runSuite([dir], renderer: calls.renderer)
    let errored = try #require(results.first)
    #expect(errored.status == .error)
    let call = try #require(calls.calls.first)
    #expect(call.seqs == (errored.events - 10)...errored.events)
    #expect(errored.trace == call.seqs.map { "#\($0)" })
    #expect(!FileManager.default.fileExists(atPath: call.path))
  }

  @Test func aPassingCaseRendersNothingAndLeavesNoLog() throws {
    let dir = try failingSuite("passing", failureAt: #"expect_state("active")"#)
    let calls = RenderCalls()
    let temporary = try emptyFolder("passing-logs")
    let results = try runSuite([dir], temporary: temporary, renderer: calls.renderer)
    #expect(results.map(\.status) == [.passed])
    #expect(calls.calls.isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [])
  }

  @Test func aKeptLogIsTheOneTheTraceWasRenderedFrom() throws {
    let dir = try failingSuite("kept", failureAt: #"expect_state("background")"#)
    let logs = dir + "/logs"
    try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
    let calls = RenderCalls()
    let results = try runSuite([dir + "/fails.lua"], logs: logs, renderer: calls.renderer)
    let call = try #require(calls.calls.first)
    #expect(call.path.hasPrefix(logs + "/.lifesim-"))
    #expect(results[0].logPath == logs + "/fails-ios17.lifelog")
    #expect(try FileManager.default.contentsOfDirectory(atPath: logs) == ["fails-ios17.lifelog"])
    // Eight events before the failed expectation, it, and three after.
    let failure = call.seqs.lowerBound + 8
    #expect(call.seqs == (failure - 8)...(failure + 3))
    let text = try String(contentsOfFile: logs + "/fails-ios17.lifelog", encoding: .utf8)
    let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("{\"seq\":\(failure),") })
    #expect(line.contains(#""kind":"expect","name":"expect_state","passed":false"#))
  }
}
