import Foundation
import Testing

/// `explore -o` and `explore merge` read nothing they have not checked and write over nothing
/// they read: a report is hostile input, and a folder being merged is an input.
@Suite(.serialized) struct ExploreMergeCLITests {
  /// An app whose save action crashes: explore finds it in its first runs.
  private static let app = """
    app { root = "Editor" }
    controller "Editor" { actions = { save = function(vc) error("disk full") end } }
    """

  /// A folder holding `app.lua` and the exploration of it in `out` (one finding).
  private func explored(_ name: String) throws -> String {
    let dir = try scriptFolder(name, ["app.lua": Self.app])
    let r = try lifesim(["explore", dir + "/app.lua", "--runs", "20", "-o", dir + "/out"])
    #expect(r.status == 1, "\(r.out)\(r.err)")
    return dir
  }

  private func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  @Test("a report that jq reformatted, or one with seconds as a string, merges like the original")
  func reformattedReportsMerge() throws {
    let dir = try explored("merge-reformatted")
    let original = try #require(bytes(dir + "/out/report.json"))
    let object = try JSONSerialization.jsonObject(with: original)
    try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted]).write(to: URL(fileURLWithPath: dir + "/out/report.json"))
    let merged = try lifesim(["explore", "merge", dir + "/out", "-o", dir + "/all"])
    #expect(merged.status == 1, "\(merged.err)")
    #expect(merged.out.hasPrefix("20 runs merged from 1 report; coverage "), "\(merged.out)")
    #expect(merged.out.hasSuffix("; 1 finding\n"), "\(merged.out)")
    let expected = String(decoding: original, as: UTF8.self).replacingOccurrences(of: "\"shard\":\"1/1\"", with: "\"shard\":\"merged\"")
    #expect(bytes(dir + "/all/report.json").map { String(decoding: $0, as: UTF8.self) } == expected)
    #expect(bytes(dir + "/all/finding-1.lifelog") == bytes(dir + "/out/finding-1.lifelog"))
    let seconds = try #require(expected.range(of: #""seconds":[0-9.]+"#, options: .regularExpression))
    let old = expected.replacingCharacters(in: seconds, with: "\"seconds\":\"" + expected[seconds].dropFirst(10) + "\"")
    try old.write(toFile: dir + "/out/report.json", atomically: true, encoding: .utf8)
    let again = try lifesim(["explore", "merge", dir + "/out", "-o", dir + "/all", "--force"])
    #expect(again.status == 1, "\(again.err)")
    #expect(bytes(dir + "/all/report.json").map { String(decoding: $0, as: UTF8.self) } == expected)
  }

  @Test("a hostile report stops the merge with exit 2 naming it, before anything is written")
  func hostileReportsAreRefused() throws {
    let dir = try explored("merge-hostile")
    let good = String(decoding: try #require(bytes(dir + "/out/report.json")), as: UTF8.self)
    try FileManager.default.copyItem(atPath: dir + "/out", toPath: dir + "/bad")
    let bad = dir + "/bad/report.json"
    let cases: [(from: String, to: String, problem: String)] = [
      ("\"runs\":20", "\"runs\":9223372036854775807", "runs adds up to more than 9223372036854775807 with the reports before it"),
      ("\"runs\":20", "\"runs\":-1", "runs must be a whole number, 0 or more"),
      ("\"runs\":20", "\"runs\":\"20\"", "runs must be a whole number, 0 or more"),
      ("\"finding-1.lua\"", "\"../../secret.lua\"", "findings[0].scenario must be a name explore writes (finding-N.lua), not a path"),
      ("\"finding-1.lua\"", "\"finding-01.lua\"", "findings[0].scenario must be a name explore writes (finding-N.lua), not a path"),
      ("\"reproduces\":true", "\"reproduces\":1", "findings[0].reproduces must be true or false"),
      ("\"shard\":\"1/1\"", "\"shard\":\"1/3\"", "shard must be \"merged\" or K/N with N dividing 16"),
      ("{\"runs\":20", "{\"runs\":20,\"runs\":20", "not JSON (duplicate key \"runs\" at byte 17)"),
      ("{\"runs\":20", String(repeating: "[", count: 100), "not JSON (nested deeper than 64 at byte 64)"),
      ("{\"runs\":20", "{\"\\u001b[2J\":1,\"\\u001b[2J\":1,\"runs\":20", "not JSON (duplicate key \"\\027[2J\" at byte 26)"),
    ]
    for c in cases {
      try good.replacingOccurrences(of: c.from, with: c.to).write(toFile: bad, atomically: true, encoding: .utf8)
      let r = try lifesim(["explore", "merge", dir + "/out", dir + "/bad", "-o", dir + "/merged"])
      #expect(r.status == 2, "\(c.to): \(r.out)")
      #expect(r.err == "lifesim: \(bad): \(c.problem)\n", "\(c.to)")
      #expect(!FileManager.default.fileExists(atPath: dir + "/merged"), "\(c.to)")
    }
  }

  @Test("a finding or log that is a link or a folder is not copied: merge copies only what explore writes")
  func onlyPlainFilesAreCopied() throws {
    let dir = try explored("merge-links")
    try "-- secret\n".write(toFile: dir + "/secret.lua", atomically: true, encoding: .utf8)
    let log = dir + "/out/finding-1.lifelog"
    for replace in [{ try FileManager.default.createSymbolicLink(atPath: log, withDestinationPath: dir + "/secret.lua") },
                    { try FileManager.default.createDirectory(atPath: log, withIntermediateDirectories: false) }] {
      try FileManager.default.removeItem(atPath: log)
      try replace()
      let r = try lifesim(["explore", "merge", dir + "/out", "-o", dir + "/all"])
      #expect(r.status == 2, "\(r.out)")
      #expect(r.err == "lifesim: \(log): not a plain file; explore writes each finding as one, and merge copies nothing else\n")
      #expect(!FileManager.default.fileExists(atPath: dir + "/all"))
    }
  }

  @Test("a folder given twice is refused: its runs would count twice")
  func aFolderGivenTwiceIsRefused() throws {
    let dir = try explored("merge-twice")
    try FileManager.default.createSymbolicLink(atPath: dir + "/again", withDestinationPath: dir + "/out")
    let r = try lifesim(["explore", "merge", dir + "/out", dir + "/again", "-o", dir + "/all"])
    #expect(r.status == 2, "\(r.out)")
    #expect(r.err == "lifesim: \(dir)/again/report.json: is the report \(dir)/out/report.json again; give each folder once\n")
    #expect(!FileManager.default.fileExists(atPath: dir + "/all"))
  }

  @Test("merging into a folder being merged is refused even with --force, however the folder is spelled")
  func mergingIntoAnInputIsRefused() throws {
    let dir = try explored("merge-into-input")
    let before = try ["finding-1.lua", "finding-1.lifelog", "report.json"].map { try #require(bytes(dir + "/out/" + $0)) }
    try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: dir + "/out")
    for target in [dir + "/out", dir + "/link"] {
      let r = try lifesim(["explore", "merge", dir + "/out", "-o", target, "--force"])
      #expect(r.status == 2, "\(r.out)")
      #expect(r.err == "lifesim: \(target)/report.json: is the input \(dir)/out/report.json; refusing to write over it, even with --force\n")
    }
    #expect(try ["finding-1.lua", "finding-1.lifelog", "report.json"].map { try #require(bytes(dir + "/out/" + $0)) } == before)
  }

  @Test("explore -o refuses an existing finding without --force, and an input always")
  func exploreNeverOverwritesSilently() throws {
    let dir = try scriptFolder("explore-overwrite", ["finding-1.lua": Self.app, "out/finding-1.lua": "-- mine\n"])
    let existing = try lifesim(["explore", dir + "/finding-1.lua", "--runs", "20", "-o", dir + "/out"])
    #expect(existing.status == 2)
    #expect(existing.err == "lifesim: \(dir)/out/finding-1.lua: already exists; use --force to overwrite the folder's findings\n")
    #expect(bytes(dir + "/out/finding-1.lua") == Data("-- mine\n".utf8))
    let input = try lifesim(["explore", dir + "/finding-1.lua", "--runs", "20", "-o", dir, "--force"])
    #expect(input.status == 2)
    #expect(input.err == "lifesim: \(dir)/finding-1.lua: is the input \(dir)/finding-1.lua; refusing to write over it, even with --force\n")
    #expect(bytes(dir + "/finding-1.lua") == Data(Self.app.utf8))
    #expect(!FileManager.default.fileExists(atPath: dir + "/report.json"))
  }

  @Test("one run, one verb, one report: counts of one are singular")
  func singularCounts() throws {
    let dir = try scriptFolder("explore-singular", ["app.lua": """
      app { root = "Home" }
      controller "Home" { }
      function AppDelegate.didFinishLaunchingWithOptions(application, options) error("no") end
      """])
    let r = try lifesim(["explore", dir + "/app.lua", "--runs", "1", "-o", dir + "/out"])
    #expect(r.status == 1, "\(r.err)")
    #expect(r.out.hasPrefix("1 run, "), "\(r.out)")
    #expect(r.out.hasSuffix("; 1 finding\n  finding 1: crash in AppDelegate.application(_:didFinishLaunchingWithOptions:), 1 verb (\(dir)/out/finding-1.lua)\n"), "\(r.out)")
    let merged = try lifesim(["explore", "merge", dir + "/out", "-o", dir + "/all"])
    #expect(merged.out.hasPrefix("1 run merged from 1 report; coverage "), "\(merged.out)")
  }
}
