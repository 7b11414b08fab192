import JSON

extension MigrationReport {
  /// The regressions as one SARIF 2.1.0 log, located in AFTER (files from `afterRoot`, the
  /// folder `%SRCROOT%` names), so that code scanning shows them on the change that made them.
  package func sarif(toolVersion: String, afterRoot: String) -> JSONValue {
    let kinds = MigrationChange.Kind.allCases
    let rules = kinds.map { kind in
      JSONValue.object([
        ("id", .string(kind.rawValue)), ("shortDescription", .object([("text", .string(Self.summaries[kind] ?? kind.rawValue))])),
        ("fullDescription", .object([("text", .string((Self.summaries[kind] ?? kind.rawValue) + " Source: docs/migration.md"))])),
        ("help", .object([("text", .string((Self.summaries[kind] ?? "") + "\nSource: docs/migration.md")),
                          ("markdown", .string((Self.summaries[kind] ?? "") + "\n\nSource: docs/migration.md"))])),
        ("defaultConfiguration", .object([("level", .string("error"))])),
        ("properties", .object([("tags", .array(["ios", "lifecycle", "scene-migration"].map(JSONValue.string)))])),
      ])
    }
    let results = changes.filter(\.regression).map { change -> JSONValue in
      var location: [(String, JSONValue)] = []
      if let place = change.after {
        location = [("physicalLocation", .object([
          ("artifactLocation", .object([("uri", .string(ScanReport.uri(place.file))), ("uriBaseId", .string("%SRCROOT%"))])),
          ("region", .object([("startLine", .int(Int64(max(1, place.line))))])),
        ]))]
      }
      return .object([
        ("ruleId", .string(change.kind.rawValue)), ("ruleIndex", .int(Int64(kinds.firstIndex(of: change.kind) ?? 0))), ("level", .string("error")),
        ("message", .object([("text", .string(change.message))])), ("locations", .array(location.isEmpty ? [] : [.object(location)])),
        ("properties", .object([("target", .string(change.target))] + Self.confirmationMembers(change.confirmation))),
      ])
    }
    return .object([
      ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")), ("version", .string("2.1.0")),
      ("runs", .array([.object([
        ("tool", .object([("driver", .object([("name", .string("lifesim scan --compare")), ("version", .string(toolVersion)), ("rules", .array(rules))]))])),
        ("originalUriBaseIds", .object([("%SRCROOT%", .object([("uri", .string(ScanResult.fileURI(folder: afterRoot)))]))])),
        ("results", .array(results)),
      ])])),
    ])
  }

  /// Each change kind in one sentence.
  static let summaries: [MigrationChange.Kind: String] = [
    .handlerSilenced: "An app-delegate handler UIKit called before the migration is never called after it, and nothing does its work.",
    .payloadLost: "A URL, user activity or quick action the app handled before is not read after: at a cold launch it comes in the scene's connection options.",
    .movedAfterLaunch: "A BGTask registration or the notification delegate that was set at launch is set later now.",
    .windowWithoutScene: "A window made without a scene in a scene app is never shown.",
    .appWindowNil: "The app delegate's window, which UIKit set before, is nil in a scene app.",
    .workDuplicated: "Work now in both the app delegate's launch and the scene delegate's willConnectTo runs twice, and again per window.",
    .workLost: "A function the app-delegate handler called is not called by the scene-delegate method that replaces it.",
    .restorationChanged: "State restoration changed: a scene app restores through stateRestorationActivity(for:).",
    .other: "Another lifecycle change.",
  ]
}
