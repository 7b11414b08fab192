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

  @Test(arguments: [
    ("members", "let x = a" + String(repeating: ".b", count: 100_000)),
    ("calls", "let x = f" + String(repeating: "()", count: 100_000)),
    ("subscripts", "let x = a" + String(repeating: "[0]", count: 100_000)),
    ("unwraps", "let x = a" + String(repeating: "!", count: 100_000)),
    ("trys", "let x = " + String(repeating: "try ", count: 100_000) + "f()"),
  ])
  func aPostfixChainAHundredThousandLongIsNamed(_ name: String, _ text: String) throws {
    #expect(try notReadReason(name, text) == Self.tooDeep)
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
