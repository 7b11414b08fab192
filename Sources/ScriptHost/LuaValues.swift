import EventStore
import LuaRuntime
import JSON

/// Converting between Lua values and the JSON the log stores (`store`/`stored`).
extension LuaVM {
  /// The value at `idx` as JSON: nil, booleans, integers, floats, strings, and
  /// tables of them (arrays 1…n, or string-keyed maps stored with sorted keys). `what`
  /// begins an error's message: the API that is given the value.
  package func json(at idx: Int32, depth: Int = 0, what: String = "store") throws(LuaRaise) -> JSONValue {
    guard depth < Self.storedDepthMax else {
      throw LuaRaise(at: self, "\(what): value nested deeper than \(Self.storedDepthMax) tables (or a cycle)")
    }
    // Each level holds a key and a value on the stack while it reads the next level.
    guard ensureStack(4) else { throw LuaRaise(at: self, "\(what): value too deep for the Lua stack") }
    let idx = absIndex(idx)
    switch type(idx) {
    case .nil, .none: return .null
    case .boolean: return .bool(bool(idx))
    case .number:
      if isInteger(idx), let i = integer(idx) { return .int(i) }
      let d = number(idx) ?? 0
      guard d.isFinite else { throw LuaRaise(at: self, "\(what): numbers must be finite") }
      return .double(d)
    case .string: return .string(string(idx) ?? "")
    case .table:
      let n = rawLength(idx)
      var count = 0
      var stringKeys: [(String, JSONValue)] = []
      pushNil()
      while next(idx) {
        count += 1
        if type(-2) == .string {
          let key = string(-2) ?? ""
          stringKeys.append((key, try json(at: -1, depth: depth + 1, what: what)))
        } else if !(type(-2) == .number && isInteger(-2)) {
          pop(2)
          throw LuaRaise(at: self, "\(what): table keys must be strings, or 1…n for an array")
        }
        pop()
      }
      if count == n {
        var items: [JSONValue] = []
        for i in stride(from: 1, through: n, by: 1) {
          rawGet(idx, i)
          items.append(try json(at: -1, depth: depth + 1, what: what))
          pop()
        }
        return .array(items)
      }
      guard stringKeys.count == count else { throw LuaRaise(at: self, "\(what): a table must be an array or have only string keys") }
      return .object(stringKeys.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) })
    default:
      throw LuaRaise(at: self, "\(what): a \(type(idx)) cannot be stored (strings, numbers, booleans and tables only)")
    }
  }

  /// The deepest table `store` accepts (a cycle is caught here too).
  package static let storedDepthMax = 32

  /// Pushes a JSON value as Lua. Values come from `store`, so they are at most
  /// `storedDepthMax` deep; the stack grows one level at a time.
  package func push(json value: JSONValue) throws {
    guard ensureStack(3) else { throw LuaRaise(at: self, "stored: value too deep for the Lua stack") }
    switch value {
    case .null: pushNil()
    case let .bool(b): push(b)
    case let .int(i): push(i)
    case let .double(d): push(d)
    case let .string(s): push(s)
    case let .array(items):
      newTable()
      for (i, item) in items.enumerated() { try push(json: item); rawSet(-2, i + 1) }
    case let .object(members):
      newTable()
      for (k, v) in members { try push(json: v); rawSet(-2, k) }
    }
  }
}
