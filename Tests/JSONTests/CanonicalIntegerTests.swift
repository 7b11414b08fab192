import Testing
import JSON

/// `CanonicalJSONWriter.int`: every integer as Swift's own `description` writes it, around each
/// change in the number of digits and at both ends of `Int64`.
@Suite struct CanonicalIntegerTests {
  /// 0…120, each power of ten and its neighbours, both ends of Int64, and each negated.
  static let values: [Int64] = {
    var values = Array(Int64(0)...120)
    var power: Int64 = 1
    for _ in 0..<18 {
      power *= 10
      values += [power - 1, power, power + 1]
    }
    values += [.max, .max - 1, 1_234_567_890_123_456_789]
    return values + values.map { -$0 } + [.min, .min + 1]
  }()

  @Test("each integer is written as its description, alone and after others in an array")
  func integersAreWrittenAsTheirDescription() {
    for value in Self.values {
      var w = CanonicalJSONWriter()
      w.int(value)
      #expect(w.text == value.description)
    }
    var w = CanonicalJSONWriter(capacity: 8)
    w.beginArray()
    for value in Self.values { w.int(value) }
    w.endArray()
    #expect(w.text == "[" + Self.values.map(\.description).joined(separator: ",") + "]")
  }
}
