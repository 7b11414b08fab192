/// A count and its noun, singular for one: `1 verb`, `3 verbs`, `0 findings`.
public func quantity(_ count: some BinaryInteger, _ noun: String) -> String {
  "\(count) \(noun)\(count == 1 ? "" : "s")"
}
