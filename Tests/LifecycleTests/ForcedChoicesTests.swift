import JSON
import Lifecycle
import Testing

/// `--choose SITE=true|false`: read from the command line, kept in byte order of the sites,
/// recorded in the header only when set, checked when read back, and layered by the run plan.
@Suite struct ForcedChoicesTests {
  /// The message `body` is refused with, nil when it is not.
  private func refusal(_ body: () throws -> Void) -> String? {
    do { try body(); return nil } catch { return (error as? Profile.KnobError)?.description ?? "\(error)" }
  }

  @Test func theCommandLineFormIsReadAndSitesKeepByteOrder() throws {
    var choices = ForcedChoices()
    try choices.force(parsing: "b.swift:9=true")
    try choices.force(parsing: "a=b.swift:3=false")
    try choices.force(parsing: "B.swift:1=true")
    try choices.force(parsing: "b.swift:9=false")
    #expect(choices.values.map(\.site) == ["B.swift:1", "a=b.swift:3", "b.swift:9"])
    #expect(choices.value(of: "b.swift:9") == false)
    #expect(choices.commandLineWords == ["--choose", "B.swift:1=true", "--choose", "a=b.swift:3=false", "--choose", "b.swift:9=false"])
    #expect(choices.text == "B.swift:1=true, a=b.swift:3=false, b.swift:9=false")
  }

  @Test(arguments: [
    ("x", "--choose x: expected SITE=true or SITE=false, e.g. --choose AppDelegate.swift:57=false"),
    ("x=yes", "--choose x=yes: expected SITE=true or SITE=false, e.g. --choose AppDelegate.swift:57=false"),
    ("=true", "--choose =true: a choice's site must not be empty"),
    ("a\u{1B}[2J=true", "--choose a\u{1B}[2J=true: a choice's site must not hold a control character"),
    ("a\u{85}b=true", "--choose a\u{85}b=true: a choice's site must not hold a control character"),
  ])
  func aWrongChoiceSaysWhatWasExpected(text: String, message: String) {
    var choices = ForcedChoices()
    #expect(refusal { try choices.force(parsing: text) } == message)
  }

  @Test func aRunForcesAtMost64Sites() throws {
    var choices = ForcedChoices()
    for n in 0..<64 { try choices.force("s\(n)", true) }
    #expect(refusal { try choices.force("s64", true) } == "at most 64 choices may be forced in one run")
    try choices.force("s3", false)  // a site already forced may change
  }

  /// The header has `choose` last and only when set, so every other log keeps its bytes.
  @Test func theHeaderRecordsForcedChoicesOnlyWhenSet() throws {
    var profile = Profile(ios: 17, scenes: true)
    #expect(profile.json["choose"] == nil)
    try profile.forcedChoices.force("Z.swift:2", false)
    try profile.forcedChoices.force("A.swift:8", true)
    guard case let .object(members) = profile.json else { Issue.record("not an object"); return }
    #expect(members.last?.0 == "choose")
    #expect(members.last?.1.canonicalText == #"{"A.swift:8":true,"Z.swift:2":false}"#)
    #expect(try Profile(json: profile.json) == profile)
  }

  @Test(arguments: [
    (#"{"a":1}"#, "profile: choose: each site must be true or false"),
    (#"[true]"#, "profile: choose must be an object of at most 64 sites, each true or false"),
    (#"{"":true}"#, "profile: choose: a choice's site must not be empty"),
  ])
  func aCraftedHeaderChoiceIsRefused(choose: String, message: String) throws {
    guard case var .object(members) = Profile(ios: 17, scenes: true).json else { Issue.record("not an object"); return }
    members.append(("choose", try JSONParser.parse(choose)))
    #expect(refusal { _ = try Profile(json: .object(members)) } == message)
  }

  /// The command line's choices go over a recorded header's, site by site.
  @Test func theCommandLineForcesOverTheRecordedChoices() throws {
    var recorded = Profile(ios: 26, scenes: true)
    try recorded.forcedChoices.force("a", true)
    try recorded.forcedChoices.force("b", true)
    var line = ForcedChoices()
    try line.force("b", false)
    let profile = try RunPlan(recorded: recorded, commandLine: .init(choices: line)).profile()
    #expect(profile.forcedChoices.text == "a=true, b=false")
    #expect(try RunPlan(commandLine: .init(choices: line)).profile().forcedChoices.text == "b=false")
  }
}
