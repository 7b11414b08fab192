/// A JSON value whose objects keep their keys in the order they were written.
///
/// The log never depends on a `Dictionary`'s order: objects are arrays of
/// key/value pairs, so the same value always encodes to the same bytes.
public enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  /// A non-integral number. Never used in hashed time fields (times are integer µs).
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case let (.bool(a), .bool(b)): return a == b
    case let (.int(a), .int(b)): return a == b
    case let (.double(a), .double(b)): return a == b
    case let (.string(a), .string(b)): return a == b
    case let (.array(a), .array(b)): return a == b
    case let (.object(a), .object(b)):
      guard a.count == b.count else { return false }
      for (x, y) in zip(a, b) where x.0 != y.0 || x.1 != y.1 { return false }
      return true
    default: return false
    }
  }

  /// The member named `key` of an object, or nil.
  public subscript(key: String) -> JSONValue? {
    guard case let .object(members) = self else { return nil }
    for (k, v) in members where k == key { return v }
    return nil
  }

  public var stringValue: String? { if case let .string(s) = self { return s }; return nil }
  public var intValue: Int64? { if case let .int(i) = self { return i }; return nil }
  public var boolValue: Bool? { if case let .bool(b) = self { return b }; return nil }
  public var arrayValue: [JSONValue]? { if case let .array(a) = self { return a }; return nil }
  public var objectValue: [(String, JSONValue)]? { if case let .object(o) = self { return o }; return nil }

  /// The canonical encoding: no spaces, keys in stored order.
  public var canonicalText: String {
    var w = CanonicalJSONWriter()
    w.value(self)
    return w.text
  }
}
