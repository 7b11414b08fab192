import JSON
import Lifecycle

/// A recorded verb as the scenario line that performs it again: what a finding's scenario is
/// made of, and what a failed expectation names as its window.
public enum VerbCallText {
  /// The verb call that performs `input`, as a scenario writes it: its row's arguments in
  /// order, then a table of the options it sets, sorted by key (`present("A", { navigation = true })`,
  /// `swipe_back { cancel = true }`).
  public static func call(_ input: Input) -> String {
    let spec = input.spec, values = input.arguments.values
    var positional: [String] = [], options: [String] = []
    for argument in spec.arguments {
      switch argument {
      case let .options(declared):
        for option in declared.sorted(by: { $0.key < $1.key }) {
          guard let value = values[option.key], value != .flag(false) else { continue }
          options.append("\(option.key) = \(literal(value))")
        }
      case let .seconds(key):
        if case let .number(us)? = values[key] { positional.append(seconds(us)) }
      case let .action(key, argumentsKey):
        if let name = values[key] { positional.append(literal(name)) }
        if case let .list(arguments)? = values[argumentsKey] { positional += arguments.map(luaLiteral) }
      case let .string(key, _, _), let .choice(key, _, _), let .tab(key, _), let .scene(key, _),
           let .optionalChoice(key, _, _), let .boolean(key):
        if let value = values[key] { positional.append(literal(value)) }
      }
    }
    if options.isEmpty { return "\(spec.name)(\(positional.joined(separator: ", ")))" }
    let table = "{ \(options.joined(separator: ", ")) }"
    return positional.isEmpty ? "\(spec.name) \(table)" : "\(spec.name)(\(positional.joined(separator: ", ")), \(table))"
  }

  /// A recorded argument as Lua source (a list: its values, comma-separated).
  private static func literal(_ value: VerbValue) -> String {
    switch value {
    case let .text(s): return LuaStringLiteral.quote(s)
    case let .number(n): return integer(n)
    case let .flag(b): return b ? "true" : "false"
    case let .list(l): return l.map(luaLiteral).joined(separator: ", ")
    }
  }

  /// An integer as Lua reads it back as that integer (Lua reads `-9223372036854775808` as a
  /// float: the negation of a numeral too large for an integer).
  package static func integer(_ n: Int64) -> String { n == .min ? "(-9223372036854775807 - 1)" : String(n) }

  /// µs as the shortest decimal seconds that reads back as the same µs (`4.9`, `180`, `0.000001`).
  package static func seconds(_ us: Int64) -> String {
    let whole = us / 1_000_000
    var fraction = String(us % 1_000_000)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return fraction.isEmpty ? "\(whole)" : "\(whole).\(fraction)"
  }

  /// An action's argument as a Lua literal: a string, a number that reads back the same, a boolean.
  package static func luaLiteral(_ value: JSONValue) -> String {
    switch value {
    case let .string(s): return LuaStringLiteral.quote(s)
    case let .int(i): return integer(i)
    case let .double(d): return d.isNaN ? "(0/0)" : d.isInfinite ? (d > 0 ? "(1/0)" : "(-1/0)") : "\(d)"
    case let .bool(b): return b ? "true" : "false"
    case .null, .array, .object: return "nil"
    }
  }
}
