import ArgumentParser
import Testing
import TestSupport
@testable import lifesim

/// The fast paths of `run` and `replay` (QuickRun, LogReplay.quick) read arguments by hand to skip
/// ArgumentParser's start-up. They cannot drift from its declarations: for every argument list
/// made of the words below (all lists up to three words, and seeded random ones up to six), a
/// list the fast path takes must be one ArgumentParser accepts and reads as the very same
/// request; any other list is left to ArgumentParser.
@Suite struct QuickPathTests {
  /// Options and values of every form: each declared spelling, `--x=1`, joined short flags,
  /// repeats (by picking a word twice), `--`, an unknown option, help, empty and `-` words.
  static let runWords = ["a.lua", "b.lua", "out.lifelog", "-q", "--quiet", "-o", "--output", "--output=out.lifelog",
                         "-oout.lifelog", "-qo", "--quiet=1", "--seed", "7", "--json", "--force", "--app", "--",
                         "-", "", "help", "--help", "-h", "--unknown", "-x"]
  static let replayWords = ["a.lifelog", "b.lifelog", "--state", "--json", "--numbers", "--until", "5", "--verify",
                            "--state=1", "--json=true", "-s", "--app", "--", "-", "", "help", "--help", "-h", "--unknown"]

  /// Every list of up to three `words`, then `random` lists of four to six (seed 29).
  static func argumentLists(_ words: [String], random: Int) -> [[String]] {
    var lists: [[String]] = [[]]
    var last: [[String]] = [[]]
    for _ in 1...3 {
      last = last.flatMap { list in words.map { list + [$0] } }
      lists += last
    }
    var generator = SplitMix64(seed: 29)
    for _ in 0..<random {
      lists.append((0..<(4 + generator.below(3))).map { _ in words[generator.below(words.count)] })
    }
    return lists
  }

  /// How many lists of `words` after `command` the fast path `quick` took; each one it took is
  /// checked against what ArgumentParser made of the same list (`parsed`: nil if it refused it).
  static func fastPathAgreement<Request: Equatable>(_ command: String, _ words: [String],
                                                    quick: (ArraySlice<String>) -> Request?,
                                                    parsed: (ParsableCommand?) -> Request?) -> Int {
    var taken = 0
    for arguments in argumentLists(words, random: 3000) {
      guard let fast = quick(([command] + arguments)[...]) else { continue }
      taken += 1
      #expect(parsed(try? Lifesim.parseAsRoot([command] + arguments)) == fast, "\(command) \(arguments)")
    }
    return taken
  }

  @Test func runsFastPathReadsWhatArgumentParserReads() {
    let taken = Self.fastPathAgreement("run", Self.runWords, quick: QuickRun.request) { ($0 as? Run)?.request }
    #expect(taken > 100)
  }

  @Test func replaysFastPathReadsWhatArgumentParserReads() {
    let taken = Self.fastPathAgreement("replay", Self.replayWords, quick: LogReplay.quick) { ($0 as? Replay)?.logReplay }
    #expect(taken > 30)
  }

  /// The forms the fast paths exist for are taken by them (else every run pays ArgumentParser's start-up).
  @Test func theCommonFormsTakeTheFastPath() {
    let runs: [[String]] = [["a.lua"], ["a.lua", "-q"], ["--quiet", "a.lua"], ["a.lua", "-o", "out.lifelog"],
                            ["--output", "out.lifelog", "-q", "a.lua"]]
    for arguments in runs { #expect(QuickRun.request((["run"] + arguments)[...]) != nil, "run \(arguments)") }
    let replays: [[String]] = [["a.lifelog"], ["a.lifelog", "--state"], ["--json", "a.lifelog"], ["a.lifelog", "--state", "--json"]]
    for arguments in replays { #expect(LogReplay.quick((["replay"] + arguments)[...]) != nil, "replay \(arguments)") }
  }

  /// Only the command's own name starts a fast path.
  @Test func otherCommandsNeverTakeTheFastPath() {
    for command in ["test", "diff", "verify", "export", "Run", "replay2", ""] {
      #expect(QuickRun.request([command, "a.lua"]) == nil)
      #expect(LogReplay.quick([command, "a.lifelog"]) == nil)
    }
  }
}
