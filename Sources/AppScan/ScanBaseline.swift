import EventStore
import FoundationEssentials
import JSON

/// An earlier scan's findings (its `--json` or SARIF output), to adopt the scan in CI without
/// first fixing everything it finds: a finding whose fingerprint the baseline holds is
/// unchanged and does not fail the exit status; a new one does; one the baseline holds that is
/// gone is absent. Fingerprints name the code, the target, the file from the repository root
/// and the text of the line, so findings match when lines move (`Fingerprints`).
package struct ScanBaseline: Sendable {
  /// A finding the baseline holds.
  package struct Finding: Sendable, Equatable {
    package let code: String
    package let target: String
    package let file: String
    package let line: Int
    package let message: String
    package let fingerprint: String
  }

  package let findings: [Finding]
  /// The fingerprints it holds.
  package let fingerprints: Set<String>

  /// A SARIF URI as the path it names (`My%20App/./A.swift` is `My App/A.swift`).
  static func path(ofURI uri: String) -> String {
    let decoded = PercentEncoding.decode(uri) ?? uri
    return decoded.hasPrefix("./") ? String(decoded.dropFirst(2)) : decoded
  }

  init(findings: [Finding]) {
    self.findings = findings
    fingerprints = Set(findings.map(\.fingerprint))
  }
  /// The largest baseline read: an earlier report, not a log.
  static let maxBytes = 64 << 20

  /// The baseline at `path`, or why it is not one (naming the file, and the line of a JSON Lines file).
  package static func read(_ path: String) -> Result<ScanBaseline, ScanTrouble> {
    guard let bytes = POSIXFile.readAll(path) else { return .failure(ScanTrouble("\(path): cannot read the baseline")) }
    guard bytes.count <= maxBytes else { return .failure(ScanTrouble("\(path): larger than \(maxBytes) bytes; not a scan's output")) }
    if let document = try? JSONParser.parseDocument(Array(bytes)), document["runs"] != nil {
      return sarif(document, path: path)
    }
    var findings: [Finding] = []
    for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
      guard let value = try? JSONParser.parse(Array(line)) else {
        return .failure(ScanTrouble("\(path):\(index + 1): not a line of `lifesim scan --json` nor a SARIF log"))
      }
      guard value["kind"]?.stringValue == "diagnostic" else { continue }
      guard let finding = Finding(code: value["code"], target: value["target"], file: value["file"], line: value["line"],
                                  message: value["message"], fingerprint: value["fingerprint"]) else {
        return .failure(ScanTrouble("\(path):\(index + 1): a diagnostic line without its code, target, file, line and fingerprint"))
      }
      findings.append(finding)
    }
    return .success(ScanBaseline(findings: findings))
  }

  /// The results of a SARIF log this command wrote.
  private static func sarif(_ document: JSONValue, path: String) -> Result<ScanBaseline, ScanTrouble> {
    var findings: [Finding] = []
    for run in document["runs"]?.arrayValue ?? [] {
      for result in run["results"]?.arrayValue ?? [] where result["baselineState"]?.stringValue != "absent" {
        let location = result["locations"]?.arrayValue?.first?["physicalLocation"]
        guard let finding = Finding(code: result["ruleId"], target: result["properties"]?["target"],
                                    file: location?["artifactLocation"]?["uri"]?.stringValue.map { JSONValue.string(ScanBaseline.path(ofURI: $0)) },
                                    line: location?["region"]?["startLine"],
                                    message: result["message"]?["text"], fingerprint: result["partialFingerprints"]?["primaryLocationLineHash"]) else {
          return .failure(ScanTrouble("\(path): a SARIF result without its rule, target, location and fingerprint (not written by lifesim scan?)"))
        }
        findings.append(finding)
      }
    }
    return .success(ScanBaseline(findings: findings))
  }

  /// The baseline's findings that `result` no longer has.
  package func absent(from result: ScanResult) -> [Finding] {
    let now = Set(result.diagnostics.compactMap(\.fingerprint))
    return findings.filter { !now.contains($0.fingerprint) }
  }
}

private extension ScanBaseline.Finding {
  init?(code: JSONValue?, target: JSONValue?, file: JSONValue?, line: JSONValue?, message: JSONValue?, fingerprint: JSONValue?) {
    guard let code = code?.stringValue, let target = target?.stringValue, let file = file?.stringValue, let line = line?.intValue,
          let fingerprint = fingerprint?.stringValue else { return nil }
    self.init(code: code, target: target, file: file, line: Int(clamping: line), message: message?.stringValue ?? "", fingerprint: fingerprint)
  }
}
