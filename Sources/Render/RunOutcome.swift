import JSON

/// A run's outcome as the page and the tables show it: each member of the trailer's `outcome`
/// taken only with the type lifesim writes it with (anyone can write a log whose chain
/// verifies), so a string where a count belongs is shown as unknown, never passed on.
package struct RunOutcome {
  package struct Termination {
    let reason: String?
    let code: String?
    let description: String?
    /// MetricKit 27's category and whether the app was in the foreground (`TerminationCategory.annotated`).
    let category: String?
    let foreground: Bool?
  }

  /// The application state at the end.
  package let state: String?
  package let expectationsPassed: Int64?
  package let expectationsFailed: Int64?
  package let terminations: [Termination]
  /// The script error that stopped the run.
  package let error: String?

  package init(_ outcome: JSONValue) {
    state = outcome["state"]?.stringValue
    expectationsPassed = outcome["expectations"]?["passed"]?.intValue
    expectationsFailed = outcome["expectations"]?["failed"]?.intValue
    terminations = (outcome["terminations"]?.arrayValue ?? []).map {
      Termination(reason: $0["reason"]?.stringValue, code: $0["code"]?.stringValue, description: $0["description"]?.stringValue,
                  category: $0["category"]?.stringValue, foreground: $0["foreground"]?.boolValue)
    }
    error = outcome["error"]?.stringValue
  }

  /// The typed members as JSON (null for what was missing or of another type).
  package var json: JSONValue {
    .object([
      ("state", Self.json(state)), ("passed", expectationsPassed.map(JSONValue.int) ?? .null),
      ("failed", expectationsFailed.map(JSONValue.int) ?? .null),
      ("terminations", .array(terminations.map {
        .object([("reason", Self.json($0.reason)), ("code", Self.json($0.code)), ("description", Self.json($0.description)),
                 ("category", Self.json($0.category)), ("foreground", $0.foreground.map(JSONValue.bool) ?? .null)])
      })),
      ("error", Self.json(error)),
    ])
  }

  package static func json(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
}
