import JSON
import Foundation

extension ScanResult {
  /// The report as one SARIF 2.1.0 log (the format code scanners such as GitHub's read): every
  /// rule in the driver, one result per diagnostic, at its file and line.
  package func sarif(toolVersion: String) -> JSONValue {
    let rules = ScanRule.all
    let driver = JSONValue.object([
      ("name", .string("lifesim scan")), ("version", .string(toolVersion)),
      ("rules", .array(rules.map { rule in
        .object([("id", .string(rule.code)), ("shortDescription", .object([("text", .string(rule.summary))])),
                 ("helpUri", .string(rule.source)),
                 ("defaultConfiguration", .object([("level", .string(rule.level))]))])
      })),
    ])
    let results = diagnostics.map { diagnostic -> JSONValue in
      let location = JSONValue.object([("physicalLocation", .object([
        ("artifactLocation", .object([("uri", .string(ScanReport.uri(diagnostic.place.file)))])),
        ("region", .object([("startLine", .int(Int64(max(1, diagnostic.place.line))))])),
      ]))])
      return .object([
        ("ruleId", .string(diagnostic.code)), ("ruleIndex", .int(Int64(rules.firstIndex { $0.code == diagnostic.code } ?? 0))),
        ("level", .string(diagnostic.rule.level)), ("message", .object([("text", .string(diagnostic.message))])),
        ("locations", .array([location])), ("properties", .object([("target", .string(diagnostic.target))])),
      ])
    }
    return .object([
      ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")), ("version", .string("2.1.0")),
      ("runs", .array([.object([("tool", .object([("driver", driver)])), ("results", .array(results))])])),
    ])
  }

}

extension ScanReport {
  /// A path as a URI reference: relative paths stay relative (GitHub resolves them against the
  /// repository), and every byte a URI path cannot hold is percent-encoded. A relative path
  /// whose first segment holds `:` starts with `./`, so that it never reads as a scheme
  /// (`javascript:alert(1)/App.swift`).
  package static func uri(_ path: String) -> String {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: ";?#[]%")
    let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    let first = encoded.prefix { $0 != "/" }
    return !encoded.hasPrefix("/") && first.contains(":") ? "./" + encoded : encoded
  }
}
