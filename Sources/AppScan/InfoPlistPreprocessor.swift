/// An Info.plist the build preprocesses (`INFOPLIST_PREPROCESS = YES`) as C: `#if`, `#ifdef`,
/// `#ifndef`, `#elif`, `#else`, `#endif`, `#define`, `#undef` and `#include` lines between its
/// elements. The scan keeps the lines a branch selects when its condition is known from the
/// macros (`INFOPLIST_PREPROCESSOR_DEFINITIONS`, and the file's own `#define`s), and keeps both
/// branches when it is not, naming the conditions it could not decide. Every removed line
/// becomes an empty one, so the plist's line numbers stay those of the file.
package struct InfoPlistPreprocessor: Sendable {
  /// What a macro is known to be: defined with a value, or undefined. Absent: unknown.
  var macros: [String: String?]
  /// Every macro not in `macros` is undefined (the project lists its definitions and has no
  /// prefix header); else such a macro is unknown.
  var closedWorld: Bool
  /// Macros known to be unknown whatever the world: the build configurations disagree on them.
  var unknown: Set<String> = []
  /// How deep `#if`s may nest.
  static let maxDepth = 256

  /// The result: the text to parse, the conditions whose branches were both kept, and whether
  /// an `#include` was left out.
  package struct Output: Equatable, Sendable {
    package var text: String
    /// The conditions whose branches were both kept.
    package var undecided: [String]
    /// An `#include` was left out.
    package var includesSkipped: Bool
  }

  /// Whether `text` has preprocessor lines at all.
  static func hasDirectives(_ text: String) -> Bool {
    text.split(separator: "\n").contains { directive($0) != nil }
  }

  /// The preprocessed text, or why it cannot be (an unbalanced or too deep `#if`), with the line.
  func run(_ text: String) -> Result<Output, ScanTrouble> {
    var macros = self.macros
    /// Macros a branch the scan could not decide defines or undefines: unknown from there on.
    var undecidedNames = unknown
    var frames: [(earlier: Truth, current: Truth)] = []
    var output = Output(text: "", undecided: [], includesSkipped: false)
    var lines: [Substring] = []
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      guard let (word, rest) = Self.directive(line) else {
        lines.append(frames.contains { $0.current == .no } ? "" : line)
        continue
      }
      lines.append("")
      let active = !frames.contains { $0.current == .no }
      let evaluator = Evaluator(macros: macros, closedWorld: closedWorld, unknown: undecidedNames)
      let decided = !frames.contains { $0.current == .unknown }
      switch word {
      case "if", "ifdef", "ifndef":
        guard frames.count < Self.maxDepth else { return .failure(ScanTrouble("line \(number + 1): #if nests deeper than \(Self.maxDepth) levels")) }
        var truth = word == "if" ? evaluator.value(of: rest) : evaluator.defined(rest.trimmingBlanks)
        if word == "ifndef" { truth = !truth }
        if truth == .unknown, active { output.undecided.append("#\(word) \(rest.trimmingBlanks)") }
        frames.append((.no, truth))
      case "elif", "else":
        guard let frame = frames.popLast() else { return .failure(ScanTrouble("line \(number + 1): #\(word) without #if")) }
        let earlier = frame.earlier || frame.current
        let condition = word == "elif" ? evaluator.value(of: rest) : .yes
        let truth = !earlier && condition
        if word == "elif", condition == .unknown, active { output.undecided.append("#elif \(rest.trimmingBlanks)") }
        frames.append((earlier, truth))
      case "endif":
        guard frames.popLast() != nil else { return .failure(ScanTrouble("line \(number + 1): #endif without #if")) }
      case "define" where active:
        // A macro an undecided branch defines or undefines is unknown from there on.
        let parts = rest.trimmingBlanks.split(separator: " ", maxSplits: 1)
        guard let name = parts.first.map(String.init) else { break }
        if decided { macros[name] = parts.count > 1 ? String(parts[1]).trimmingBlanks : "" } else { undecidedNames.insert(name) }
      case "undef" where active:
        let name = rest.trimmingBlanks
        if decided { macros[name] = .some(nil) } else { undecidedNames.insert(name) }
      case "include", "import":
        output.includesSkipped = output.includesSkipped || active
      default:
        break
      }
    }
    guard frames.isEmpty else { return .failure(ScanTrouble("#if without #endif")) }
    output.text = lines.joined(separator: "\n")
    return .success(output)
  }

  /// The preprocessor's words a directive line may start with.
  private static let directiveWords: Set<Substring> = ["if", "ifdef", "ifndef", "elif", "else", "endif", "define", "undef", "include",
                                                        "import", "error", "warning", "pragma"]

  /// `("ifdef", " DEBUG")` for a line `#ifdef DEBUG`; nil for any other line.
  private static func directive(_ line: Substring) -> (String, String)? {
    let trimmed = line.drop { $0 == " " || $0 == "\t" }
    guard trimmed.first == "#" else { return nil }
    let afterHash = trimmed.dropFirst().drop { $0 == " " || $0 == "\t" }
    let word = afterHash.prefix { $0.isLetter }
    guard directiveWords.contains(word) else { return nil }
    var rest = String(afterHash.dropFirst(word.count))
    if let comment = rest.firstRange(of: "//") { rest = String(rest[..<comment.lowerBound]) }
    return (String(word), rest)
  }
}

/// A condition's value: known true, known false, or unknown (both branches are read).
enum Truth: Equatable {
  case yes, no, unknown

  static prefix func ! (truth: Truth) -> Truth { truth == .unknown ? .unknown : (truth == .yes ? .no : .yes) }
  static func && (a: Truth, b: Truth) -> Truth { a == .no || b == .no ? .no : (a == .yes && b == .yes ? .yes : .unknown) }
  static func || (a: Truth, b: Truth) -> Truth { a == .yes || b == .yes ? .yes : (a == .no && b == .no ? .no : .unknown) }
}

/// Evaluates a `#if` condition: `NAME`, `defined(NAME)`, `defined NAME`, `!`, `&&`, `||`,
/// parentheses, numbers, and `==`/`!=` between names and numbers. Anything else is unknown.
private struct Evaluator {
  let macros: [String: String?]
  let closedWorld: Bool
  /// Names an undecided branch defined or undefined.
  var unknown: Set<String> = []

  func defined(_ name: String) -> Truth {
    if unknown.contains(name) { return .unknown }
    if let value = macros[name] { return value == nil ? .no : .yes }
    return closedWorld ? .no : .unknown
  }

  func value(of text: String) -> Truth {
    var tokens = Self.tokens(text)[...]
    let truth = disjunction(&tokens, depth: 0)
    return tokens.isEmpty ? truth : .unknown
  }

  private func disjunction(_ tokens: inout ArraySlice<String>, depth: Int) -> Truth {
    var truth = conjunction(&tokens, depth: depth)
    while tokens.first == "||" { tokens.removeFirst(); truth = truth || conjunction(&tokens, depth: depth) }
    return truth
  }

  private func conjunction(_ tokens: inout ArraySlice<String>, depth: Int) -> Truth {
    var truth = unary(&tokens, depth: depth)
    while tokens.first == "&&" { tokens.removeFirst(); truth = truth && unary(&tokens, depth: depth) }
    return truth
  }

  private func unary(_ tokens: inout ArraySlice<String>, depth: Int) -> Truth {
    guard depth < 64, let token = tokens.popFirst() else { tokens = []; return .unknown }
    switch token {
    case "!": return !unary(&tokens, depth: depth + 1)
    case "(":
      let truth = disjunction(&tokens, depth: depth + 1)
      guard tokens.popFirst() == ")" else { tokens = []; return .unknown }
      return truth
    case "defined":
      let parenthesised = tokens.first == "("
      if parenthesised { tokens.removeFirst() }
      guard let name = tokens.popFirst() else { return .unknown }
      if parenthesised, tokens.popFirst() != ")" { tokens = []; return .unknown }
      return defined(name)
    default:
      let left = number(token)
      guard let comparison = tokens.first, comparison == "==" || comparison == "!=" else {
        return left.map { $0 != 0 ? .yes : .no } ?? .unknown
      }
      tokens.removeFirst()
      guard let left, let right = tokens.popFirst().flatMap(number) else { return .unknown }
      return (left == right) == (comparison == "==") ? .yes : .no
    }
  }

  /// A number, or a macro's numeric value (an undefined macro is 0); nil when unknown.
  private func number(_ token: String) -> Int? {
    if let value = Int(token) { return value }
    guard token.first.map({ $0.isLetter || $0 == "_" }) == true, !unknown.contains(token) else { return nil }
    switch macros[token] {
    case let .some(value?): return Int(value)
    case .some(nil): return 0
    case nil: return closedWorld ? 0 : nil
    }
  }

  private static func tokens(_ text: String) -> [String] {
    var tokens: [String] = []
    var current = ""
    var characters = Array(text)[...]
    func flush() { if !current.isEmpty { tokens.append(current); current = "" } }
    while let character = characters.popFirst() {
      if character.isLetter || character.isNumber || character == "_" { current.append(character); continue }
      flush()
      if character == " " || character == "\t" { continue }
      if let next = characters.first, ["&&", "||", "==", "!="].contains(String([character, next])) {
        tokens.append(String([character, next]))
        characters.removeFirst()
      } else {
        tokens.append(String(character))
      }
    }
    flush()
    return tokens
  }
}
