import Testing
@testable import JSON

/// `JSONParser.parseDocument`: a JSON file as an editor or `jq .` leaves it; log lines stay strict.
@Suite struct JSONDocumentTests {
  @Test("whitespace around every token is accepted in a document, and refused in a log line")
  func whitespaceInDocuments() throws {
    let text = " {\n  \"a\" : [ 1 ,\t2 ] ,\r\n  \"b\": { }\n}\n"
    #expect(try JSONParser.parseDocument(Array(text.utf8)) == .object([("a", .array([.int(1), .int(2)])), ("b", .object([]))]))
    #expect(throws: JSONParser.Failure(offset: 0, reason: "unexpected character")) { try JSONParser.parse(text) }
  }

  @Test("whitespace never joins tokens, and the document's other rules are the log's")
  func documentRules() {
    #expect(throws: JSONParser.Failure(offset: 2, reason: "unexpected bytes after the value")) {
      try JSONParser.parseDocument(Array("1 2".utf8))
    }
    #expect(throws: JSONParser.Failure(offset: 11, reason: "duplicate key \"a\"")) {
      try JSONParser.parseDocument(Array("{\"a\":1, \"a\" :2}".utf8))
    }
    #expect(throws: JSONParser.Failure(offset: 128, reason: "nested deeper than 64")) {
      try JSONParser.parseDocument(Array(String(repeating: "[ ", count: 70).utf8))
    }
  }
}
