/// A scenario script found by `lifesim test`.
public struct ScenarioFile: Sendable, Equatable {
  /// The path as found (relative to the working directory when the argument was).
  public let path: String
  /// The file name without `.lua`.
  public let stem: String
  /// What its cases are called: `scenario { name = "…" }` when written as a plain string, else the stem.
  public let name: String

  public init(path: String, declaredName: String? = nil) {
    self.path = path
    let file = path.split(separator: "/").last.map(String.init) ?? path
    stem = file.hasSuffix(".lua") ? String(file.dropLast(4)) : file
    name = declaredName.map(VisibleText.escaped).flatMap { $0.isEmpty ? nil : $0 } ?? stem
  }
}

/// A `.lua` file under a suite folder and what `lifesim test` made of it: every such file is
/// one of these, so nothing is left out without a word.
public struct DiscoveredFile: Sendable, Equatable {
  public enum Role: String, Sendable {
    /// It calls `scenario { … }` at the top level: it runs.
    case scenario
    /// It calls `app { … }` at the top level.
    case app
    /// A scenario or an app requires it.
    case module
    /// None of these: `why` says what it is.
    case notACase = "not a case"
  }

  /// The path, with bytes that are not UTF-8 and control characters written `\xNN`.
  public let path: String
  public let role: Role
  /// Why a file is not a case.
  public let why: String?
  /// It looks like a case that cannot run (it calls verbs with no `scenario { … }`, or its
  /// name cannot be opened as written): the suite is in trouble (exit status 2).
  public let isProblem: Bool

  public init(path: String, role: Role, why: String? = nil, isProblem: Bool = false) {
    self.path = path; self.role = role; self.why = why; self.isProblem = isProblem
  }
}

/// Text from a file name or a script made safe to print: bytes that are not UTF-8, control
/// characters and backslashes are written as `\xNN`, so two different names never look the same.
public enum VisibleText {
  public static func escaped<Bytes: Collection>(bytes: Bytes) -> String where Bytes.Element == UInt8 {
    let bytes = Array(bytes)
    var out = ""
    var i = 0
    while i < bytes.count {
      let length = sequenceLength(bytes[i])
      if length > 1, i + length <= bytes.count, let text = String(validating: bytes[i..<(i + length)], as: UTF8.self) {
        out += text
        i += length
      } else {
        let b = bytes[i]
        let printable = length == 1 && b >= 0x20 && b != 0x7F && b != 0x5C
        out += printable ? String(UnicodeScalar(b)) : "\\x" + String(b, radix: 16, uppercase: true).leftPadded(to: 2)
        i += 1
      }
    }
    return out
  }

  public static func escaped(_ text: String) -> String {
    let plain = text.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7F && $0 != 0x5C }
    return plain ? text : escaped(bytes: text.utf8)
  }

  /// Whether `bytes` are UTF-8 as they stand.
  public static func isUTF8<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
    String(validating: bytes, as: UTF8.self) != nil
  }

  private static func sequenceLength(_ lead: UInt8) -> Int {
    switch lead {
    case 0..<0x80: 1
    case 0xC2..<0xE0: 2
    case 0xE0..<0xF0: 3
    case 0xF0..<0xF5: 4
    default: 0
    }
  }
}

private extension String {
  func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
