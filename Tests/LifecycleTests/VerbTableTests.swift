import Foundation
import Testing
@testable import Lifecycle

/// The verb table is the one declaration of the scenario verbs: the LuaLS types and the
/// API reference list exactly its verbs, and every verb makes inputs.
@Suite struct VerbTableTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  /// The scenario functions that are not verbs (no input event): the declaration, expectations, queries.
  static let notVerbs: Set<String> = ["scenario", "expect_state", "expect_calls", "expect_no_calls", "expect_terminated",
                                      "expect_diagnostic",
                                      "expect", "stored", "app_state"]

  static func read(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  static var verbNames: [String] { VerbSpec.all.map(\.name) }

  @Test func namesAreUnique() {
    #expect(Set(Self.verbNames).count == Self.verbNames.count)
  }

  @Test("Scripts/types/scenario.lua declares exactly the verbs of the table")
  func luaTypes() throws {
    let text = try Self.read("Scripts/types/scenario.lua")
    let declared = text.split(separator: "\n").compactMap { line -> String? in
      guard line.hasPrefix("function "), let paren = line.firstIndex(of: "(") else { return nil }
      return String(line[line.index(line.startIndex, offsetBy: 9)..<paren])
    }
    #expect(declared.filter { !Self.notVerbs.contains($0) } == Self.verbNames)
  }

  @Test("docs/lua-api.md's verb table lists exactly the verbs of the table")
  func apiReference() throws {
    let text = try Self.read("docs/lua-api.md")
    guard let start = text.range(of: "| verb | example | what happens |") else {
      Issue.record("docs/lua-api.md has no verb table")
      return
    }
    var documented: [String] = []
    for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2) {
      guard line.hasPrefix("| ") else { break }
      let firstColumn = line.split(separator: "|")[0]
      // `lock()` / `unlock()`: every name that a backtick opens and `(` or `{` follows.
      for part in firstColumn.split(separator: "`") where part.contains("(") || part.contains("{") {
        documented.append(String(part.prefix { $0.isLetter || $0 == "_" }))
      }
    }
    #expect(documented == Self.verbNames)
  }

  @Test("every verb makes at least one input, and each input names its verb")
  func everyVerbMakesInputs() {
    var domain = ArgumentDomain(controllers: ["Detail"], tabs: 2, urls: ["notes://1"], durationsUs: [1],
                                actions: ActionCatalog(byController: ["Detail": ["save"]]),
                                bgTaskRequests: ["com.example.refresh"], transferSessions: ["com.example.images"])
    domain.continuedTasks = ["com.example.export.1"]
    for spec in VerbSpec.all {
      let inputs = spec.candidates(domain)
      #expect(!inputs.isEmpty, "\(spec.name)")
      #expect(inputs.allSatisfy { $0.verb == spec.name }, "\(spec.name)")
    }
  }
}
