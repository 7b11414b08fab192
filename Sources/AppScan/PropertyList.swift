import FoundationEssentials

/// A property list read whole (XML, binary or OpenStep), as the Swift values a dictionary of
/// `Any` holds: `String`, `Bool`, `Int`, `Double`, `Data`, `Date`, `[Any]` and `[String: Any]`.
/// What none of these is (a keyed archive's UID) is kept as an opaque value.
enum PropertyList {
  /// The property list in `data` is refused when it nests deeper than this.
  static let depthMax = 512

  /// The root value of the property list in `data`. A binary list's values are found by
  /// reference, so a list may name itself or share one value many times over: reading stops
  /// past `depthMax` levels or once it has made more values than `data` has bytes.
  static func parse(_ data: Data) throws -> Any {
    let decoder = PropertyListDecoder()
    decoder.userInfo[budgetKey] = Budget(values: data.count + 16)
    return try decoder.decode(Value.self, from: data).any
  }

  private static let budgetKey = CodingUserInfoKey(rawValue: "lifesim.propertyListBudget")!

  /// The values one reading may still make. A reading runs on one thread.
  private final class Budget: @unchecked Sendable {
    var values: Int
    init(values: Int) { self.values = values }
  }

  private struct TooLarge: Error {}

  /// A value no case below reads (a UID), kept so that the rest of the list is read.
  private struct Opaque {}

  /// One value, decoded by what it turns out to be: a container, else each scalar in turn.
  private indirect enum Value: Decodable {
    case string(String), bool(Bool), integer(Int), real(Double), date(Date), data(Data)
    case array([Value]), dictionary([String: Value]), opaque

    init(from decoder: any Decoder) throws {
      guard let budget = decoder.userInfo[PropertyList.budgetKey] as? Budget, budget.values > 0,
            decoder.codingPath.count <= PropertyList.depthMax else { throw TooLarge() }
      budget.values -= 1
      if var items = try? decoder.unkeyedContainer() {
        var values: [Value] = []
        while !items.isAtEnd { values.append(try items.decode(Value.self)) }
        self = .array(values)
      } else if let members = try? decoder.container(keyedBy: Key.self) {
        var values: [String: Value] = [:]
        for key in members.allKeys { values[key.stringValue] = try members.decode(Value.self, forKey: key) }
        self = .dictionary(values)
      } else {
        self = try Self.scalar(try decoder.singleValueContainer())
      }
    }

    /// A scalar: the string `$null` (which the decoder reads as nil), else the first type that
    /// reads it, else opaque.
    private static func scalar(_ scalar: any SingleValueDecodingContainer) throws -> Value {
      if scalar.decodeNil() { return .string("$null") }
      if let value = try? scalar.decode(String.self) { return .string(value) }
      if let value = try? scalar.decode(Bool.self) { return .bool(value) }
      if let value = try? scalar.decode(Int.self) { return .integer(value) }
      if let value = try? scalar.decode(Double.self) { return .real(value) }
      if let value = try? scalar.decode(Date.self) { return .date(value) }
      if let value = try? scalar.decode(Data.self) { return .data(value) }
      return .opaque
    }

    var any: Any {
      switch self {
      case let .string(value): value
      case let .bool(value): value
      case let .integer(value): value
      case let .real(value): value
      case let .date(value): value
      case let .data(value): value
      case let .array(values): values.map(\.any)
      case let .dictionary(values): values.mapValues(\.any)
      case .opaque: Opaque()
      }
    }
  }

  /// Any key a dictionary holds.
  private struct Key: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
  }
}
