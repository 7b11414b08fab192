import EventStore

/// Converting between Lua values and the JSON the log stores (`store`/`stored`).
extension LuaVM {
  /// The value at `idx` as JSON: nil, booleans, integers, floats, strings, and
  /// tables of them (arrays 1…n, or string-keyed maps stored with sorted keys).
  func json(at idx: Int32, depth: Int = 0) throws -> JSONValue {
    guard depth < 32 else { throw LuaRaise("store: value nested deeper than 32 tables (or a cycle)") }
    let idx = absIndex(idx)
    switch type(idx) {
    case .nil, .none: return .null
    case .boolean: return .bool(bool(idx))
    case .number:
      if isInteger(idx), let i = integer(idx) { return .int(i) }
      let d = number(idx) ?? 0
      guard d.isFinite else { throw LuaRaise("store: numbers must be finite") }
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
          stringKeys.append((key, try json(at: -1, depth: depth + 1)))
        } else if !(type(-2) == .number && isInteger(-2)) {
          pop(2)
          throw LuaRaise("store: table keys must be strings, or 1…n for an array")
        }
        pop()
      }
      if count == n {
        var items: [JSONValue] = []
        for i in stride(from: 1, through: n, by: 1) {
          rawGet(idx, i)
          items.append(try json(at: -1, depth: depth + 1))
          pop()
        }
        return .array(items)
      }
      guard stringKeys.count == count else { throw LuaRaise("store: a table must be an array or have only string keys") }
      return .object(stringKeys.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) })
    default:
      throw LuaRaise("store: a \(type(idx)) cannot be stored (strings, numbers, booleans and tables only)")
    }
  }

  /// Pushes a JSON value as Lua.
  func push(json value: JSONValue) {
    switch value {
    case .null: pushNil()
    case let .bool(b): push(b)
    case let .int(i): push(i)
    case let .double(d): push(d)
    case let .string(s): push(s)
    case let .array(items):
      newTable()
      for (i, item) in items.enumerated() { push(json: item); rawSet(-2, i + 1) }
    case let .object(members):
      newTable()
      for (k, v) in members { push(json: v); rawSet(-2, k) }
    }
  }
}
