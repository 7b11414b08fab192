import Lifecycle
import LuaRuntime

/// Strict reading of the option tables scripts pass (`scenario { … }`, `present(name, { … })`,
/// `app { … }`): a key that is not an option is refused, naming the nearest one.
extension LuaVM {
  /// The first (by name) key of the table at `idx` that is not in `allowed`, as a message:
  /// `"unknown key \"sceens\" (did you mean scenes?)"`; nil when every key is allowed.
  package func unknownKey(inTableAt idx: Int32, allowed: [String]) -> String? {
    let table = absIndex(idx)
    var unknown: [String] = []
    pushNil()
    while next(table) {
      pop()  // the value; the key stays for `next`
      guard type(-1) == .string, let key = string(-1) else {
        unknown.append("[\(describeValue(-1))]")
        continue
      }
      if !allowed.contains(key) { unknown.append(key) }
    }
    // Table order is not deterministic across runs: name the first by sorting.
    guard let first = unknown.sorted().first else { return nil }
    if first.hasPrefix("[") { return "unexpected positional entry \(first); options are named: \(allowed.joined(separator: ", "))" }
    let near = nearest(first, in: allowed).map { " (did you mean \($0)?)" } ?? ""
    return "unknown key \"\(first)\"\(near); the keys are \(allowed.joined(separator: ", "))"
  }

  /// The value at `idx` as an error message shows it: `nan`, `1.5`, `"13"`, `a table`.
  package func describeValue(_ idx: Int32) -> String {
    switch type(idx) {
    case .number:
      if isInteger(idx), let i = integer(idx) { return String(i) }
      let d = number(idx) ?? .nan
      return d.isNaN ? "nan" : d.isInfinite ? (d < 0 ? "-inf" : "inf") : "\(d)"
    case .string: return "\"\(string(idx) ?? "")\""
    case .boolean: return bool(idx) ? "true" : "false"
    case .nil, .none: return "nil"
    case .table: return "a table"
    case .function: return "a function"
    case .lightUserdata, .userdata: return "a userdata"
    case .thread: return "a coroutine"
    }
  }

  /// A whole number at `idx` (an integer, or a float with no fraction), else nil: no strings, no NaN.
  package func wholeNumber(_ idx: Int32) -> Int64? {
    guard type(idx) == .number else { return nil }
    if isInteger(idx) { return integer(idx) }
    guard let d = number(idx), d.isFinite, d == d.rounded(), abs(d) < 9.2e18 else { return nil }
    return Int64(d)
  }
}
