import Foundation
import Testing
import TestSupport

/// No function in Sources/ spans more than 70 lines, and the lint that says so can fail.
@Suite struct FunctionLengthTests {
  private let lint = repositoryRoot.appendingPathComponent("lint/function-length").path

  @Test func noFunctionInSourcesIsOverSeventyLines() throws {
    let r = try runProcess(lint, ["Sources"], cwd: repositoryRoot.path)
    #expect(r.status == 0 && r.out.isEmpty && r.err.isEmpty, "\(r.out)\(r.err)")
  }

  @Test func theLintReportsALongFunctionAndIgnoresBracesInStringsAndComments() throws {
    let dir = temp("function-length")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let body = (1...69).map { _ in "  let s = \"}\" // }" }.joined(separator: "\n")
    let longOne = "struct S {\n  func long() {\n\(body)\n  }\n  func short() { }\n}\n"
    try longOne.write(toFile: dir + "/Long.swift", atomically: true, encoding: .utf8)
    let r = try runProcess(lint, [dir], cwd: repositoryRoot.path)
    #expect(r.status == 1)
    #expect(r.out == "\(dir)/Long.swift:2: func long spans 71 lines (limit 70)\n")
    let fits = "func fits() {\n" + (1...68).map { _ in "  _ = 1" }.joined(separator: "\n") + "\n}\n"
    try fits.write(toFile: dir + "/Long.swift", atomically: true, encoding: .utf8)
    let ok = try runProcess(lint, [dir], cwd: repositoryRoot.path)
    #expect(ok.status == 0 && ok.out.isEmpty, "\(ok.out)")
  }

  /// A function is counted from its `func` or `init` line to its closing brace whatever its
  /// signature holds: a closure as a default argument or in an attribute is not its body, and a
  /// signature may run over lines (`where`, effects, the brace alone). Each one below spans 71
  /// lines but `fits`, which spans 70; the protocol's requirement has no body.
  @Test func theLintCountsAFunctionWhateverItsSignatureHolds() throws {
    let dir = temp("function-length-signatures")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    func function(_ signature: [String], bodyLines: Int) -> String {
      (signature + Array(repeating: "    _ = 1", count: bodyLines) + ["  }"]).joined(separator: "\n")
    }
    let text = [
      "protocol P {", "  func requirement(_ done: @escaping () -> Void)", "}", "struct S {",
      function(["  func defaulted(done: @escaping () -> Void = {}) {"], bodyLines: 69),
      function(["  @discardableResult", "  @MainActor func attributed<T>(_ t: T) -> Int where T: Equatable {"], bodyLines: 69),
      function(["  init<T>(", "    a: T,", "    b: @escaping (T) -> Void = { _ in }", "  )", "    where T: Sendable", "  {"], bodyLines: 64),
      function(["  @available(*, deprecated, message: \"{\") func attributeWithClosure(n: Int = [1].map { $0 }[0])",
                "    async throws -> Int {"], bodyLines: 68),
      function(["  func fits(_ f: () -> Void = {}) {"], bodyLines: 68),
      "}", "",
    ].joined(separator: "\n")
    try text.write(toFile: dir + "/Signatures.swift", atomically: true, encoding: .utf8)
    let r = try runProcess(lint, [dir], cwd: repositoryRoot.path)
    #expect(r.status == 1)
    #expect(r.out == """
      \(dir)/Signatures.swift:5: func defaulted spans 71 lines (limit 70)
      \(dir)/Signatures.swift:77: func attributed spans 71 lines (limit 70)
      \(dir)/Signatures.swift:148: init spans 71 lines (limit 70)
      \(dir)/Signatures.swift:219: func attributeWithClosure spans 71 lines (limit 70)

      """, "\(r.out)")
  }
}

/// The module boundaries the package promises: C's Lua API only in LuaRuntime, C's file
/// functions only in POSIXFile, no file over 500 lines in Sources/, and a model that imports JSON alone.
@Suite struct ModuleBoundaryTests {
  private func swiftFiles(under folder: String) throws -> [String] {
    let root = repositoryRoot.appendingPathComponent(folder).path
    let paths = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
    return paths.filter { $0.hasSuffix(".swift") }.sorted().map { root + "/" + $0 }
  }

  @Test func onlyLuaRuntimeImportsCLuaOrCallsLuasCAPI() throws {
    var offenders: [String] = []
    for path in try swiftFiles(under: "Sources") where !path.contains("/Sources/LuaRuntime/") {
      let text = try String(contentsOfFile: path, encoding: .utf8)
      let cAPI = #"\b(lua|luaL|clua)_[a-z]+\(|\bLUA_[A-Z]+"#
      if text.contains("import CLua") || text.range(of: cAPI, options: .regularExpression) != nil { offenders.append(path) }
    }
    #expect(offenders.isEmpty, "\(offenders)")
  }

  @Test func noFileInSourcesIsOverFiveHundredLines() throws {
    var offenders: [String] = []
    for path in try swiftFiles(under: "Sources") {
      let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count - 1
      if lines > 500 { offenders.append("\(path): \(lines)") }
    }
    #expect(offenders.isEmpty, "\(offenders)")
  }

  @Test func theModelImportsOnlyJSON() throws {
    var imports: Set<String> = []
    for path in try swiftFiles(under: "Sources/Lifecycle") {
      for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") where line.hasPrefix("import ") {
        imports.insert(String(line.dropFirst("import ".count)))
      }
    }
    #expect(imports == ["JSON"], "\(imports.sorted())")
  }

  /// `IOSRelease` is the one place a release is named: no other file compares an iOS version
  /// or an SDK with a literal (`ios >= 13`, `$0 < 26`, `13...26`), falls back to one (`?? 17`)
  /// or writes one as a scenario's (`ios = 17`, `Profile(ios: 17)`). The knob table is the
  /// exception: each knob's default per version is a row of its own (docs/model.md §13).
  @Test func noLiteralReleaseCheckOutsideIOSRelease() throws {
    let checks = [
      #"\b(ios|sdk|iOS|SDK|minimumIOS|version)[A-Za-z_.]*\)?\s*(>=|<=|>|<|==|!=)\s*[0-9]{2}\b"#,
      #"\b[0-9]{2}\s*(>=|<=|>|<|==|!=)\s*[A-Za-z_.]*(ios|sdk|IOS|SDK)\b"#, #"\$0\s*(>=|<=|>|<)\s*[0-9]{2}\b"#,
      #"\?\?\s*[0-9]{2}\b"#, #"Profile\(ios:\s*[0-9]"#, #"\bios\s*=\s*[0-9]{2}\b"#, #"\b(1[2-9]|2[0-9])\s*\.\.[.<]\s*[0-9]"#,
    ]
    var offenders: [String] = []
    for path in try swiftFiles(under: "Sources") where !path.hasSuffix("/Lifecycle/IOSRelease.swift") && !path.hasSuffix("/Lifecycle/Knobs.swift") {
      for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
        if checks.contains(where: { line.range(of: $0, options: .regularExpression) != nil }) { offenders.append("\(path): \(line)") }
      }
    }
    #expect(offenders.isEmpty, "\(offenders)")
    // The checks find what they look for.
    for written in ["if ios >= 13 {", "profile.sdk < 26", "{ $0 >= 15 }", "c.ios ?? 17", "Profile(ios: 17)", "scenario { ios = 17 }", "13...26"] {
      #expect(checks.contains { written.range(of: $0, options: .regularExpression) != nil }, "\(written)")
    }
  }

  /// `RecordedLog` is the one way the library opens a log, so every reader checks a header's
  /// content (knob ranges) itself: no module above EventStore opens one with EventStore's
  /// readers directly (the fuzzer and the benchmark measure those readers alone).
  @Test func logsAreOpenedOnlyThroughRecordedLog() throws {
    let direct = #"\b(LogReader|LogScanner|LogEventStream)\(path|LogVerification\.check\("#
    var offenders: [String] = []
    let exempt = ["/EventStore/", "/LifecycleLog/RecordedRun.swift", "/lifesim-fuzz-reader/", "/lifesim-bench/"]
    for path in try swiftFiles(under: "Sources") where !exempt.contains(where: path.contains) {
      for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") where line.range(of: direct, options: .regularExpression) != nil {
        offenders.append("\(path): \(line)")
      }
    }
    #expect(offenders.isEmpty, "\(offenders)")
    #expect("try LogScanner(path: a)".range(of: direct, options: .regularExpression) != nil)
  }

  /// POSIXFile is the one place C file functions are called: a file that imports the C library
  /// (or Foundation) elsewhere calls none of them (a method of the same name is reached with `.`).
  @Test func cFileFunctionsAreCalledOnlyInPOSIXFile() throws {
    let call = #"(?<![.A-Za-z0-9_]|func )(open|stat|lstat|fstat|rename|unlink|mkdir|rmdir|opendir|readdir|fopen|realpath|mkdtemp|access|ftruncate)\("#
    var offenders: [String] = []
    for path in try swiftFiles(under: "Sources") where !path.hasSuffix("/EventStore/POSIXFile.swift") {
      let text = try String(contentsOfFile: path, encoding: .utf8)
      // Foundation brings the C library with it on Linux.
      guard ["import Glibc", "import Darwin", "import Foundation"].contains(where: text.contains) else { continue }
      for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
        if line.range(of: call, options: .regularExpression) != nil { offenders.append("\(path): \(line)") }
      }
    }
    #expect(offenders.isEmpty, "\(offenders)")
  }
}
