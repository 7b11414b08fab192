import Foundation
import Testing
@testable import AppScan
import EventStore

/// The scan reads property lists, paths, URIs and conditions without Foundation (whose
/// start-up every command paid). Each replacement answers as the Foundation call it replaced,
/// which the tests (and only they) still link.
@Suite struct FoundationParityTests {
  /// What the scan reads of a property list value: dictionaries, arrays, strings, and whether
  /// anything else is there.
  private func shape(_ value: Any) -> String {
    if let dictionary = value as? [String: Any] {
      return "{" + dictionary.keys.sorted().map { "\($0)=\(shape(dictionary[$0]!))" }.joined(separator: ",") + "}"
    }
    if let array = value as? [Any] { return "[" + array.map(shape).joined(separator: ",") + "]" }
    if let string = value as? String { return "'\(string)'" }
    return "other"
  }

  private static let xml = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0"><dict>
      <key>UIApplicationSceneManifest</key><dict>
        <key>UIApplicationSupportsMultipleScenes</key><true/>
        <key>UISceneConfigurations</key><dict>
          <key>UIWindowSceneSessionRoleApplication</key><array><dict>
            <key>UISceneConfigurationName</key><string>Default Configuration</string>
            <key>UISceneDelegateClassName</key><string>$(PRODUCT_MODULE_NAME).SceneDelegate</string>
          </dict></array>
        </dict>
      </dict>
      <key>UIBackgroundModes</key><array><string>fetch</string><string>processing</string></array>
      <key>BGTaskSchedulerPermittedIdentifiers</key><array><string>com.example.refresh</string><integer>7</integer></array>
      <key>Numbers</key><array><integer>-3</integer><real>2.5</real><false/><date>2020-01-01T00:00:00Z</date><data>AAE=</data></array>
      <key>Empty</key><dict/><key>None</key><array/><key>Text &amp; more</key><string>a &lt; b</string>
    </dict></plist>
    """

  @Test func propertyListsReadAsPropertyListSerializationReadThem() throws {
    let parsed = try PropertyListSerialization.propertyList(from: Data(Self.xml.utf8), format: nil)
    let binary = try PropertyListSerialization.data(fromPropertyList: parsed, format: .binary, options: 0)
    let openStep = Data(#"{ UIMainStoryboardFile = Main; UIBackgroundModes = (fetch, "remote-notification"); Count = 3; }"#.utf8)
    for data in [Data(Self.xml.utf8), binary, openStep, Data("<plist version=\"1.0\"><array><string>x</string></array></plist>".utf8)] {
      let theirs = try PropertyListSerialization.propertyList(from: data, format: nil)
      #expect(shape(try PropertyList.parse(data)) == shape(theirs))
    }
    #expect(shape(try PropertyList.parse(binary)).contains("'$(PRODUCT_MODULE_NAME).SceneDelegate'"))
    // Broken or odd texts: refused by both, or read alike.
    for odd in ["", "<plist><dict><key>A</key></dict>", "{ A = ; }", "bplist00", "<plist><dict><key>A</key><string>x</string>", "plain"] {
      let theirs = (try? PropertyListSerialization.propertyList(from: Data(odd.utf8), format: nil)).map(shape)
      #expect((try? PropertyList.parse(Data(odd.utf8))).map(shape) == theirs, "\(odd)")
    }
    #expect((try? PropertyList.parse(Data("<plist><dict><key>A</key></dict>".utf8))) == nil)
  }

  @Test func nullsAndUIDsAreReadAsPropertyListSerializationReadsThem() throws {
    let xml = #"<plist version="1.0"><dict><key>A</key><string>$null</string><key>U</key><dict><key>CF$UID</key><integer>1</integer></dict>"#
      + #"<key>UIBackgroundModes</key><array><string>fetch</string></array></dict></plist>"#
    let theirs = try PropertyListSerialization.propertyList(from: Data(xml.utf8), format: nil)
    #expect(shape(try PropertyList.parse(Data(xml.utf8))) == shape(theirs))
    #expect(shape(theirs).contains("A='$null'"))
  }

  /// A binary property list finds its values by reference: one that holds itself, or shares
  /// one value at every level, is refused at once instead of read forever.
  @Test func aBinaryListThatHoldsItselfOrDoublesEachLevelIsRefused() throws {
    // `bplist00`, the objects, the offset table (1-byte offsets), and the trailer.
    func binaryList(objects: [[UInt8]]) -> Data {
      var bytes = Array("bplist00".utf8), offsets: [UInt8] = []
      for object in objects { offsets.append(UInt8(bytes.count)); bytes += object }
      let tableOffset = UInt64(bytes.count)
      bytes += offsets
      bytes += [0, 0, 0, 0, 0, 0, 1, 1]
      for value in [UInt64(objects.count), 0, tableOffset] { bytes += (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) } }
      return Data(bytes)
    }
    let itself = binaryList(objects: [[0xA1, 0]])  // an array whose one element is the array
    #expect((try? PropertyListSerialization.propertyList(from: itself, format: nil)) == nil)
    #expect((try? PropertyList.parse(itself)) == nil)
    // Forty arrays, each holding the next one twice, and a string: 2^40 values when unshared.
    let doubling = binaryList(objects: (0..<40).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] } + [[0x51, UInt8(ascii: "x")]])
    #expect((try? PropertyList.parse(doubling)) == nil)
    let shared = binaryList(objects: [[0xA2, 1, 1], [0x51, UInt8(ascii: "x")]])
    #expect(shape(try PropertyList.parse(shared)) == "['x','x']")
  }

  @Test func theLastOccurrenceIsFoundWhereOccurrencesOverlap() {
    for (text, pattern) in [("/a/check/check/x.lua", "/check/"), ("cold [iOS [iOS 17]", " [iOS "), ("aaaa", "aa"), ("abc", "d"), ("", "a"), ("a", "")] {
      let theirs = text.range(of: pattern, options: .backwards).map { text.distance(from: text.startIndex, to: $0.lowerBound) }
      #expect(text.lastRange(of: pattern).map { text.distance(from: text.startIndex, to: $0.lowerBound) } == theirs, "\(text) \(pattern)")
    }
  }

  @Test func bytesAreFoundAsDataRangeFindsThem() {
    let needle = Array("lifesim:ignore".utf8)
    for text in ["", "lifesim:ignor", "lifesim:ignore", "x lifesim:ignore", "llifesim:ignore", "lifesim:ignorelifesim:ignore",
                 "lifesim:lifesim:ignore", "// lifesim:ignor e", String(repeating: "l", count: 100) + "lifesim:ignore"] {
      let data = Data(text.utf8)
      #expect(data.containsBytes(needle) == (data.range(of: Data(needle)) != nil), "\(text)")
      #expect(data.dropFirst(1).containsBytes(needle) == (data.dropFirst(1).range(of: Data(needle)) != nil), "\(text)")
    }
  }

  @Test func aBinaryInfoPlistGivesTheFactsOfItsXML() throws {
    let parsed = try PropertyListSerialization.propertyList(from: Data(Self.xml.utf8), format: nil)
    let binary = try PropertyListSerialization.data(fromPropertyList: parsed, format: .binary, options: 0)
    let facts = try #require(try InfoPlistFacts.read(path: "Info.plist", data: binary).get())
    #expect(facts.sceneManifest == "configured")
    #expect(facts.sceneDelegates.map { "\($0.className) \($0.role) \($0.configuration ?? "-")" }
            == ["SceneDelegate UIWindowSceneSessionRoleApplication Default Configuration"])
    #expect(facts.backgroundModes == ["fetch", "processing"])
    #expect(facts.permittedIdentifiers.map(\.identifier) == ["com.example.refresh"])
  }

  @Test func urisAreEncodedAndDecodedAsFoundationDid() {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: ";?#[]%")
    let ascii = String(decoding: (1...127).map { UInt8($0) }, as: UTF8.self)
    for path in [ascii, "My App/Scene Delegate.swift", "é/ü/日本/🙂.swift", "a%20b", "javascript:alert(1)/A.swift", ""] {
      #expect(PercentEncoding.encodePath(path) == path.addingPercentEncoding(withAllowedCharacters: allowed), "\(path)")
    }
    for uri in ["My%20App/A.swift", "%C3%A9", "%c3%a9", "%", "%4", "%G1", "%FF", "100%", "plain", ""] {
      #expect(PercentEncoding.decode(uri) == uri.removingPercentEncoding, "\(uri)")
    }
  }

  @Test func pathsArePartedAsNSStringPartsThem() {
    for path in ["/tmp/scratch.tiff", "/tmp/scratch", "/tmp/", "scratch///", "/", "", "a/b", "/a", "a/b/", "./x", "../", "a//b", "out//f.lua"] {
      #expect(PathText.lastComponent(path) == (path as NSString).lastPathComponent, "\(path)")
      #expect(PathText.parent(path) == (path as NSString).deletingLastPathComponent, "\(path)")
    }
    // Where Foundation traps (the parent of a lone name) or folds a leading `//`, the answers are ours.
    #expect(PathText.parent("a") == "")
    #expect(PathText.lastComponent("a") == "a")
    #expect(PathText.parent("//a//b//") == "//a")
  }

  @Test func blanksAreTrimmedAsCharacterSetWhitespacesTrimsThem() {
    // Every scalar of the first plane (where every blank is) and the first of each other plane,
    // around a letter: trimmed away or kept as Foundation does.
    for value in Array(0...0xFFFF) + stride(from: 0x10000, through: 0x10FFFF, by: 0x10000) {
      guard let scalar = Unicode.Scalar(value), value != 0x0D else { continue }
      let text = String(scalar) + "a" + String(scalar)
      if text.trimmingBlanks != text.trimmingCharacters(in: .whitespaces) { Issue.record("U+\(String(value, radix: 16))") }
    }
    for text in ["  a b  ", "\ta\t", "\u{00A0}x\u{2003}", "\u{3000}y\u{3000}", "\n z \n", "", "   ", "\u{200B}w\u{200B}", "é\u{301} "] {
      #expect(text.trimmingBlanks == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
      #expect(text[...].trimmingBlanks == text.trimmingCharacters(in: .whitespaces))
    }
  }

  @Test func testConditionsAreNamedAsTheRegularExpressionNamedThem() {
    let texts = ["isRunningTests", "XCTest", "testMode", "isLatest", "TESTING", "attest", "Test", "test", "tes", "contest",
                 "_test", "1test", "Latest && isTest", "x.test", "ProcessInfo.processInfo.environment[\"XCTestConfigurationFilePath\"]", ""]
    for text in texts {
      let expected = text.range(of: "(T|(?<![A-Za-z])t)est|TEST", options: .regularExpression) != nil
      #expect(SwiftFactCollector.namesATest(text) == expected, "\(text)")
    }
  }

  @Test func iOSVersionsAreReadAsTheRegularExpressionReadThem() {
    for text in ["iOS 13, *", "iOS 12.0, *", "macOS 10, iOS 15", "iOS13", "iOS  17.2", "iOS\t14", "watchOS 9", "iOS x, iOS 16", "iOS 99999999999999999999", ""] {
      let expected = text.range(of: #"iOS\s+(\d+)"#, options: .regularExpression).flatMap { Int(text[$0].drop { !$0.isNumber }.prefix { $0.isNumber }) }
      #expect(SwiftFactCollector.iOSMajorVersion(text) == expected, "\(text)")
    }
  }
}
