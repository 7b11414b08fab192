import Testing
import JSON

/// `joinedText(separator:)` stands in for `joined(separator:)` on start-up paths: same text.
struct TextJoiningTests {
  @Test func givesWhatJoinedGives() {
    let cases: [[String]] = [[], [""], ["a"], ["a", "b"], ["", ""], ["one", "", "three", "é 日本"]]
    for parts in cases {
      for separator in ["", ", ", " "] {
        #expect(parts.joinedText(separator: separator) == parts.joined(separator: separator), "\(parts) \(separator)")
      }
    }
    #expect(["a", "b", "c"].joinedText(separator: ", ") == "a, b, c")
  }
}
