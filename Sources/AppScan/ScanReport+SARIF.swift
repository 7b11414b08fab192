import FoundationEssentials
import JSON

extension ScanResult {
  /// The report as one SARIF 2.1.0 log, made for code scanning (GitHub's reads it): every rule
  /// with its description, help and source; one result per diagnostic at its file from the
  /// repository root (`%SRCROOT%`) and line, with its fingerprint and target; with a baseline,
  /// each result's `baselineState`, and the baseline's findings now gone as `absent`.
  package func sarif(toolVersion: String) -> JSONValue {
    let rules = ScanRule.all
    let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.code, $0) })
    let driver = JSONValue.object([
      ("name", .string("lifesim scan")), ("version", .string(toolVersion)),
      ("rules", .array(rules.map(Self.descriptor))),
    ])
    var results = diagnostics.map { diagnostic -> JSONValue in
      var members: [(String, JSONValue)] = [
        ("ruleId", .string(diagnostic.code)), ("ruleIndex", .int(Int64(ruleIndex[diagnostic.code] ?? 0))),
        ("level", .string(diagnostic.rule.level)), ("message", .object([("text", .string(diagnostic.message))])),
        ("locations", .array([Self.location(diagnostic.rootRelativeFile ?? diagnostic.place.file, line: diagnostic.place.line)])),
      ]
      if let fingerprint = diagnostic.fingerprint { members.append(("partialFingerprints", .object([("primaryLocationLineHash", .string(fingerprint))]))) }
      if let state = baselineState(diagnostic) { members.append(("baselineState", .string(state))) }
      members.append(("properties", .object([("target", .string(diagnostic.target))])))
      return .object(members)
    }
    for finding in baseline?.absent(from: self) ?? [] {
      results.append(.object([
        ("ruleId", .string(finding.code)), ("level", .string(ScanRule.byCode[finding.code]?.level ?? "warning")),
        ("message", .object([("text", .string(finding.message))])), ("locations", .array([Self.location(finding.file, line: finding.line)])),
        ("partialFingerprints", .object([("primaryLocationLineHash", .string(finding.fingerprint))])), ("baselineState", .string("absent")),
        ("properties", .object([("target", .string(finding.target))])),
      ]))
    }
    let root = JSONValue.object([("uri", .string(Self.fileURI(folder: repositoryRoot)))])
    return .object([
      ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")), ("version", .string("2.1.0")),
      ("runs", .array([.object([("tool", .object([("driver", driver)])), ("originalUriBaseIds", .object([("%SRCROOT%", root)])),
                                ("results", .array(results))])])),
    ])
  }

  /// A rule: its summary, and help citing its source, in text and markdown.
  private static func descriptor(_ rule: ScanRule) -> JSONValue {
    let sourceLink = rule.source.hasPrefix("https://") ? "[\(rule.source)](\(rule.source))" : rule.source
    return .object([
      ("id", .string(rule.code)), ("shortDescription", .object([("text", .string(rule.summary))])),
      ("fullDescription", .object([("text", .string(rule.summary + " Source: " + rule.source))])),
      ("help", .object([("text", .string("\(rule.summary)\nSource: \(rule.source)\nSuppress a judged finding with // lifesim:ignore \(rule.code) — reason")),
                        ("markdown", .string("\(rule.summary)\n\nSource: \(sourceLink)\n\nSuppress a judged finding with `// lifesim:ignore \(rule.code) — reason`."))])),
      ("helpUri", .string(rule.source)),
      ("defaultConfiguration", .object([("level", .string(rule.level))])),
      ("properties", .object([("tags", .array(["ios", "lifecycle", rule.level == "error" ? "crash" : "behaviour"].map(JSONValue.string)))])),
    ])
  }

  /// A location at `file` (relative to `%SRCROOT%` unless absolute) and `line`.
  private static func location(_ file: String, line: Int) -> JSONValue {
    var artifact: [(String, JSONValue)] = [("uri", .string(ScanReport.uri(file)))]
    if !file.hasPrefix("/") { artifact.append(("uriBaseId", .string("%SRCROOT%"))) }
    return .object([("physicalLocation", .object([
      ("artifactLocation", .object(artifact)), ("region", .object([("startLine", .int(Int64(max(1, line))))])),
    ]))])
  }

  /// `file:///path/to/root/`, percent-encoded.
  static func fileURI(folder: String) -> String {
    "file://" + ScanReport.uri(folder.hasSuffix("/") ? folder : folder + "/")
  }
}

extension ScanReport {
  /// A path as a URI reference: relative paths stay relative (GitHub resolves them against the
  /// repository), and every byte a URI path cannot hold is percent-encoded. A relative path
  /// whose first segment holds `:` starts with `./`, so that it never reads as a scheme
  /// (`javascript:alert(1)/App.swift`).
  package static func uri(_ path: String) -> String {
    let encoded = PercentEncoding.encodePath(path)
    let first = encoded.prefix { $0 != "/" }
    return !encoded.hasPrefix("/") && first.contains(":") ? "./" + encoded : encoded
  }
}
