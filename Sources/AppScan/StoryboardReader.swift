import EventStore

/// The initial view controller of the app's main storyboard, read from its XML: the
/// `<document … initialViewController="ID">` and the element with that `id`'s `customClass`.
enum StoryboardReader {
  /// The app's storyboard: the one its Info.plist names (`Main` when the Info.plist is
  /// unknown), nearest its Info.plist (else its first Swift file) when several have that name;
  /// none for a SwiftUI app or an Info.plist that names none (a UI built in code).
  static func initialController(_ report: ScanReport, limits: ScanLimits, total: inout Int) -> String? {
    guard report.plistFacts == nil ? !report.isSwiftUIApp : report.plistFacts?.mainStoryboard != nil else { return nil }
    let name = (report.plistFacts?.mainStoryboard ?? "Main") + ".storyboard"
    let anchor = report.plistFacts?.path ?? report.files.swift.first ?? ""
    let named = report.files.storyboards.filter { PathText.lastComponent($0) == name }
    guard let path = named.max(by: { sharedPrefix($0, anchor) < sharedPrefix($1, anchor) }),
          case let .success(data) = SourceDiscovery.read(path, limits: limits, total: &total) else { return nil }
    let text = String(decoding: data, as: UTF8.self)
    guard let initial = attribute("initialViewController", in: text[...]),
          let element = text.firstRange(of: "id=\"\(initial)\"") else { return nil }
    // The attributes of the element that holds the id: from its `<` to its `>`.
    let start = text[..<element.lowerBound].lastIndex(of: "<") ?? element.lowerBound
    let end = text[element.upperBound...].firstIndex(of: ">") ?? text.endIndex
    let tag = text[start..<end]
    if let custom = attribute("customClass", in: tag) { return custom }
    // A plain controller: its element name (`viewController`, `navigationController`).
    let elementName = tag.dropFirst().prefix { $0.isLetter }
    return elementName.isEmpty ? nil : "UI" + elementName.prefix(1).uppercased() + elementName.dropFirst()
  }

  /// How many leading path components two paths share.
  private static func sharedPrefix(_ a: String, _ b: String) -> Int {
    zip(a.split(separator: "/"), b.split(separator: "/")).prefix { $0 == $1 }.count
  }

  /// The value of `name="…"` in `text`, if it is a plain name.
  private static func attribute(_ name: String, in text: Substring) -> String? {
    guard let range = text.firstRange(of: " \(name)=\"") else { return nil }
    let value = text[range.upperBound...].prefix { $0 != "\"" }
    return !value.isEmpty && value.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) ? String(value) : nil
  }
}
