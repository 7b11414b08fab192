import Lifecycle

/// What a script is, read without running it (`lifesim test` sorts a folder's files with it):
/// whether it calls `scenario { … }` or `app { … }` outside every function and block, whether
/// it calls scenario verbs there, and the literal `name` and `app` its `scenario { … }` gives.
/// Comments and strings are skipped as Lua skips them (`LuaTokens`).
public struct ScriptOutline: Sendable, Equatable {
  /// `scenario { … }` or `scenario({ … })` at the top level.
  public private(set) var callsScenario = false
  /// `app { … }` or `app({ … })` at the top level.
  public private(set) var callsApp = false
  /// A scenario verb (`launch()`, `home()` …) called at the top level.
  public private(set) var callsVerbs = false
  /// `scenario { name = "…" }`, when written as a plain string.
  public private(set) var declaredName: String?
  /// `scenario { app = "…" }`, when written as a plain string.
  public private(set) var declaredApp: String?

  private static let verbNames = Set(VerbSpec.all.map(\.name))

  public init(source: String) {
    let tokens = LuaTokens(source).tokens
    for (k, located) in tokens.enumerated() where located.depth == 0 {
      guard case let .name(word) = located.token, Self.isGlobalCall(tokens, at: k) else { continue }
      if word == "scenario", let open = Self.tableArgument(tokens, after: k) {
        if !callsScenario {
          declaredName = Self.stringField("name", tokens, table: open)
          declaredApp = Self.stringField("app", tokens, table: open)
        }
        callsScenario = true
      } else if word == "app", Self.tableArgument(tokens, after: k) != nil {
        callsApp = true
      } else if Self.verbNames.contains(word) {
        callsVerbs = true
      }
    }
  }

  /// A name called as a global function: not a field (`t.x`, `t:x`), not being defined or
  /// declared (`function x`, `local x`), followed by `(`, `{` or a string.
  private static func isGlobalCall(_ tokens: [LuaTokens.Located], at k: Int) -> Bool {
    if k > 0 {
      switch tokens[k - 1].token {
      case .punctuation(UInt8(ascii: ".")), .punctuation(UInt8(ascii: ":")), .name("function"), .name("local"): return false
      default: break
      }
    }
    guard k + 1 < tokens.count else { return false }
    switch tokens[k + 1].token {
    case .punctuation(UInt8(ascii: "(")), .punctuation(UInt8(ascii: "{")), .string: return true
    default: return false
    }
  }

  /// The index of the `{` of `f { … }` or `f({ … })` for the call at `k`.
  private static func tableArgument(_ tokens: [LuaTokens.Located], after k: Int) -> Int? {
    var i = k + 1
    if i < tokens.count, tokens[i].token == .punctuation(UInt8(ascii: "(")) { i += 1 }
    return i < tokens.count && tokens[i].token == .punctuation(UInt8(ascii: "{")) ? i : nil
  }

  /// `key = "text"` directly inside the table opened at `table`, ended by `,`, `;` or `}`.
  private static func stringField(_ key: String, _ tokens: [LuaTokens.Located], table: Int) -> String? {
    var nesting = 0
    var i = table
    while i < tokens.count {
      switch tokens[i].token {
      case .punctuation(UInt8(ascii: "{")), .punctuation(UInt8(ascii: "(")), .punctuation(UInt8(ascii: "[")): nesting += 1
      case .punctuation(UInt8(ascii: "}")), .punctuation(UInt8(ascii: ")")), .punctuation(UInt8(ascii: "]")):
        nesting -= 1
        if nesting == 0 { return nil }
      case .name(key) where nesting == 1 && i + 3 < tokens.count && tokens[i + 1].token == .punctuation(UInt8(ascii: "=")):
        guard case let .string(text?) = tokens[i + 2].token else { return nil }
        switch tokens[i + 3].token {
        case .punctuation(UInt8(ascii: ",")), .punctuation(UInt8(ascii: ";")), .punctuation(UInt8(ascii: "}")): return text
        default: return nil
        }
      default: break
      }
      i += 1
    }
    return nil
  }
}
