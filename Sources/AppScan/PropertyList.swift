import FoundationEssentials

/// A property list read whole (XML, binary or OpenStep), as the Swift values a dictionary of
/// `Any` holds: `String`, `Bool`, `Int`, `Double`, `Data`, `Date`, `[Any]` and `[String: Any]`.
enum PropertyList {
  /// The root value of the property list in `data`.
  static func parse(_ data: Data) throws -> Any {
    try PropertyListDecoder().decode(Value.self, from: data).any
  }

  /// One value, decoded by what it turns out to be: a container, else each scalar in turn.
  private indirect enum Value: Decodable {
    case string(String), bool(Bool), integer(Int), real(Double), date(Date), data(Data)
    case array([Value]), dictionary([String: Value])

    init(from decoder: any Decoder) throws {
      if var items = try? decoder.unkeyedContainer() {
        var values: [Value] = []
        while !items.isAtEnd { values.append(try items.decode(Value.self)) }
        self = .array(values)
      } else if let members = try? decoder.container(keyedBy: Key.self) {
        var values: [String: Value] = [:]
        for key in members.allKeys { values[key.stringValue] = try members.decode(Value.self, forKey: key) }
        self = .dictionary(values)
      } else {
        let scalar = try decoder.singleValueContainer()
        if let value = try? scalar.decode(String.self) { self = .string(value) }
        else if let value = try? scalar.decode(Bool.self) { self = .bool(value) }
        else if let value = try? scalar.decode(Int.self) { self = .integer(value) }
        else if let value = try? scalar.decode(Double.self) { self = .real(value) }
        else if let value = try? scalar.decode(Date.self) { self = .date(value) }
        else { self = .data(try scalar.decode(Data.self)) }
      }
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
