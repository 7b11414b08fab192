import EventStore
import JSON
import RunComparison
import Testing

@Suite struct OutcomeComparisonTests {
  private func ending(_ outcome: JSONValue) -> LogEnding { .complete(LogTrailer(events: 3, t: 0, outcome: outcome)) }

  private func outcome(state: String = "active", kills: [JSONValue] = [], passed: Int64 = 1, stored: [(String, JSONValue)] = [],
                       error: String? = nil) -> JSONValue {
    .object([("state", .string(state)), ("terminations", .array(kills)),
             ("expectations", .object([("passed", .int(passed)), ("failed", .int(0))])), ("stored", .object(stored))]
            + (error.map { [("error", .string($0))] } ?? []))
  }

  private func kill(_ description: String) -> JSONValue {
    .object([("reason", .string("watchdog")), ("code", .string("0x8badf00d")), ("description", .string(description))])
  }

  @Test func equalOutcomesAreTheSame() {
    let c = OutcomeComparison(a: ending(outcome()), b: ending(outcome()))
    #expect(c.same && c.differing.isEmpty)
  }

  @Test func eachPartIsComparedOnItsOwn() {
    let c = OutcomeComparison(a: ending(outcome(stored: [("k", .string("x"))])),
                              b: ending(outcome(state: "suspended", passed: 2, stored: [("k", .string("y"))], error: "s.lua:2: boom")))
    #expect(c.differing == [.state, .expectations, .stored, .error])
    #expect(c.cells(.error) == (.value(.null), .value(.string("s.lua:2: boom"))))
    #expect(c.cells(.expectations).b == .value(.object([("passed", .int(2)), ("failed", .int(0))])))
  }

  @Test func killsCompareByReasonAndCodeNotByDescription() {
    let c = OutcomeComparison(a: ending(outcome(kills: [kill("one")])), b: ending(outcome(kills: [kill("two")])))
    #expect(c.same)
    #expect(c.cells(.terminations).a == .value(.array([.object([("reason", .string("watchdog")), ("code", .string("0x8badf00d"))])])))
  }

  @Test func aLogWithoutTrailerIsCutOffAndAnUnknownEndingIsUnknown() {
    let c = OutcomeComparison(a: .cutOff(afterEvent: 10), b: nil)
    #expect(c.cells(.state) == (.cutOff(afterEvent: 10), .unknown))
    #expect(c.differing == OutcomeComparison.Part.allCases)
  }
}

@Suite struct CanonicalBodyTests {
  private func start(_ text: String) -> Int? {
    Array(text.utf8).withUnsafeBytes { CanonicalBody.sourceStart($0, end: $0.count - 1) }
  }

  @Test func theScriptLineIsFoundOnlyAsTheLastMember() {
    #expect(start(#"{"seq":1,"name":"launch","at":"s.lua:3"}"#) == 24)
    #expect(start(#"{"seq":1,"name":"launch"}"#) == nil)
    #expect(start(#"{"seq":1,"message":"x\",\"at\":\"y"}"#) == nil)
  }

  @Test func samePrefixComparesOnlyWhatBothHold() {
    let a = Array("abcdef".utf8), b = Array("abcxyz".utf8)
    a.withUnsafeBytes { x in
      b.withUnsafeBytes { y in
        #expect(CanonicalBody.samePrefix(x, y, count: 3))
        #expect(!CanonicalBody.samePrefix(x, y, count: 4))
        #expect(!CanonicalBody.samePrefix(x, y, count: 7))
        #expect(CanonicalBody.samePrefix(x, y, count: 0))
      }
    }
  }
}
