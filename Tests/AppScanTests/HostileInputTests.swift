@testable import AppScan
import Foundation
import Testing
import TestSupport

/// Deep, wide and huge inputs at the sizes that crashed or hung the scan: each is read, or named
/// as not read with why; none crashes (the time each takes is the scaling benchmark's).
@Suite struct HostileInputTests {
  /// A folder holding an app delegate and `X.swift` with `text`, scanned; the reason X was not read, if it was not.
  private func notReadReason(_ name: String, _ text: String) throws -> String? {
    let root = temporaryPath("appscan-hostile", name)
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try "@main class AppDelegate: UIResponder, UIApplicationDelegate {}".write(toFile: root + "/AppDelegate.swift", atomically: false, encoding: .utf8)
    try text.write(toFile: root + "/X.swift", atomically: false, encoding: .utf8)
    let result = try AppScanner.scan([root])
    #expect(result.apps.map(\.appDelegate) == ["AppDelegate"])
    return result.troubles.first { $0.file.hasSuffix("/X.swift") }?.reason
  }

  private static let tooDeep = "its syntax nests deeper than 2000 levels; not read"

  /// Each chain by name, its text made in the test (a hundred thousand characters do not
  /// belong in the test log's argument line).
  private static let chains: [String: @Sendable () -> String] = [
    "members": { "let x = a" + String(repeating: ".b", count: 100_000) },
    "calls": { "let x = f" + String(repeating: "()", count: 100_000) },
    "subscripts": { "let x = a" + String(repeating: "[0]", count: 100_000) },
    "unwraps": { "let x = a" + String(repeating: "!", count: 100_000) },
    "trys": { "let x = " + String(repeating: "try ", count: 100_000) + "f()" },
  ]

  @Test(arguments: ["members", "calls", "subscripts", "unwraps", "trys"])
  func aPostfixChainAHundredThousandLongIsNamed(_ name: String) throws {
    #expect(try notReadReason(name, Self.chains[name]!()) == Self.tooDeep)
  }

  @Test func genericArgumentsThousandsDeepAreNamed() throws {
    let text = "let x: " + String(repeating: "A<", count: 3_000) + "Int" + String(repeating: ">", count: 3_000) + " = 0"
    #expect(try notReadReason("generics", text) == "its generic arguments nest deeper than 256 levels; not read")
    // Real generics nest a few levels and are read; comparisons do not count.
    #expect(try notReadReason("shallow", "let x: [String: Set<Array<Int>>] = [:]\nlet y = a<b && c<d") == nil)
  }

  @Test func anArrayLiteralThirtyDeepIsNamedAndTenDeepIsRead() throws {
    let nested = { (depth: Int) in "let x = " + String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth) }
    #expect(try notReadReason("arrays", nested(30)) == "its square brackets nest too deep for the Swift parser to read in time; not read")
    #expect(try notReadReason("arrays-ten", nested(10)) == nil)
    // Brackets in strings and comments are not code.
    #expect(try notReadReason("arrays-text", "let s = \"" + String(repeating: "[", count: 40) + "\" // " + String(repeating: "[", count: 40)) == nil)
  }

  @Test func ifConfigThreeThousandDeepEnds() throws {
    let text = String(repeating: "#if A\n", count: 3_000) + "let x = 1\n" + String(repeating: "#endif\n", count: 3_000)
    let reason = try notReadReason("ifconfig", text)
    #expect(reason == nil || reason == Self.tooDeep)
  }

  @Test func anInfoPlistOfFiftyThousandIdentifiersIsReadWithEveryLine() throws {
    let strings = (0..<50_000).map { "<string>com.example.t\($0)</string>\n" }.joined()
    let text = "<?xml version=\"1.0\"?>\n<plist><dict><key>BGTaskSchedulerPermittedIdentifiers</key><array>\n" + strings + "</array></dict></plist>\n"
    let facts = try #require(try InfoPlistFacts.read(path: "Info.plist", data: Data(text.utf8)).get())
    #expect(facts.permittedIdentifiers.count == 50_000)
    #expect(facts.permittedIdentifiers.last.map { "\($0.identifier):\($0.line)" } == "com.example.t49999:50002")
  }

  /// A project file of 3.9 MB, under the 4 MiB a file may have: one app compiling 10,900 files.
  @Test func aLargeProjectFileIsReadWhole() throws {
    var objects = ""
    var buildFiles = ""
    var children = ""
    for index in 0..<10_900 {
      let reference = String(format: "AA%022X", index), buildFile = String(format: "BB%022X", index)
      objects += "\t\t\(reference) /* F\(index).swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = F\(index).swift; sourceTree = \"<group>\"; };\n"
      objects += "\t\t\(buildFile) /* F\(index).swift in Sources */ = {isa = PBXBuildFile; fileRef = \(reference) /* F\(index).swift */; };\n"
      buildFiles += "\t\t\t\t\(buildFile),\n"
      children += "\t\t\t\t\(reference),\n"
    }
    let text = """
      {
      \tobjects = {
      \(objects)\t\tG = {isa = PBXGroup; children = (
      \(children)\t\t\t); path = App; sourceTree = "<group>"; };
      \t\tM = {isa = PBXGroup; children = (G, ); sourceTree = "<group>"; };
      \t\tS = {isa = PBXSourcesBuildPhase; files = (
      \(buildFiles)\t\t\t); };
      \t\tT = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildPhases = (S, ); };
      \t\tP = {isa = PBXProject; mainGroup = M; targets = (T, ); };
      \t};
      \trootObject = P;
      }
      """
    #expect(text.utf8.count > 3_800_000 && text.utf8.count < 4 << 20)
    let targets = try XcodeProjectReader.targets(path: "R/R.xcodeproj/project.pbxproj", text: text).get()
    #expect(targets.map(\.name) == ["App"] && targets.first?.sourceFiles.count == 10_900)
    #expect(targets.first?.compiles("R/App/F10899.swift") == true)
  }
}

/// What a review of the reading found, each pinned.
@Suite struct ReviewedReadingTests {
  /// `let a = a + a + …` resolved once per name, not once per path: it ends, unknown.
  @Test func aConstantBuiltFromItselfEndsUnknown() throws {
    let root = temporaryPath("appscan-review", "self-constant")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    let parts = Array(repeating: "a", count: 64).joined(separator: " + ")
    try """
      let a = \(parts)
      @main class AppDelegate: UIResponder, UIApplicationDelegate {
        func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
          BGTaskScheduler.shared.register(forTaskWithIdentifier: a, using: nil) { _ in }
          return true
        }
      }
      """.write(toFile: root + "/AppDelegate.swift", atomically: false, encoding: .utf8)
    #expect(try AppScanner.scan([root]).apps[0].registrations.map(\.identifier) == [nil])
  }

  /// An App Clip inside the app's folder: each app keeps its own Info.plist.
  @Test func aNestedAppKeepsItsOwnPlist() throws {
    let root = temporaryPath("appscan-review", "nested")
    try FileManager.default.createDirectory(atPath: root + "/App/Clip", withIntermediateDirectories: true)
    let plist = { (id: String) in "<plist><dict><key>BGTaskSchedulerPermittedIdentifiers</key><array><string>\(id)</string></array></dict></plist>" }
    try "@main class AppDelegate: UIResponder, UIApplicationDelegate {}".write(toFile: root + "/App/AppDelegate.swift", atomically: false, encoding: .utf8)
    try plist("app").write(toFile: root + "/App/Info.plist", atomically: false, encoding: .utf8)
    try "@main class ClipDelegate: UIResponder, UIApplicationDelegate {}".write(toFile: root + "/App/Clip/ClipDelegate.swift", atomically: false, encoding: .utf8)
    try plist("clip").write(toFile: root + "/App/Clip/Info.plist", atomically: false, encoding: .utf8)
    let result = try AppScanner.scan([root])
    #expect(result.apps.map { "\($0.appDelegate ?? "-") \($0.permittedIdentifiers)" } == ["AppDelegate [\"app\"]", "ClipDelegate [\"clip\"]"])
  }

  /// A macro an undecided branch defines is unknown after it, never the last value written.
  @Test func aDefineInAnUndecidedBranchIsUnknown() throws {
    let text = "#if X\n#define A 1\n#else\n#define A 0\n#endif\n#if A\nkept\n#endif"
    let output = try InfoPlistPreprocessor(macros: [:], closedWorld: false).run(text).get()
    #expect(output.text == "\n\n\n\n\n\nkept\n")
    #expect(output.undecided == ["#if X", "#if A"])
  }

  /// Every configuration of every target may include the same base: it counts once.
  @Test func anIncludedXCConfigIsReadOnceAndCountedOnce() {
    var reads = 0
    var reader = XCConfigReader(readFile: { path in
      reads += 1
      return path == "Base.xcconfig" ? "SDKROOT = iphoneos" : "#include \"Base.xcconfig\""
    })
    let settings = (0..<200).map { reader.settings("Target\($0 % 40).xcconfig", base: [:])["SDKROOT"] }
    #expect(settings.allSatisfy { $0 == "iphoneos" } && reads == 41)
  }

  /// A file a project names is read only when it is a regular file, never through a link.
  @Test func aLinkIsNotRead() throws {
    let root = temporaryPath("appscan-review", "link")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try "x".write(toFile: root + "/real.plist", atomically: false, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: root + "/link.plist", withDestinationPath: root + "/real.plist")
    var total = 0
    #expect(throws: ScanTrouble("not a regular file (a link, a folder or a device); not read")) {
      try SourceDiscovery.read(root + "/link.plist", limits: ScanLimits(), total: &total).get()
    }
  }

  @Test func anExcludeWrittenWithDotSlashOrATrailingSlashMatches() throws {
    let result = try AppScanner.scan([fixtures + "/MultiTargetRepo"], exclude: ["./MacHelper/", "NotesWatch/*"])
    #expect(!result.files.swift.contains { $0.contains("/MacHelper/") || $0.contains("/NotesWatch/") })
  }
}
