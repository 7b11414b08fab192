import Lifecycle

/// JUnit XML as CI servers read it: one `testsuite` per scenario file, one `testcase` per
/// case (`classname` = the file, `name` = the case), `failure`, `error` and `skipped` children,
/// and the profile, seed, virtual and wall seconds as properties.
public enum JUnitReport {
  /// The document; `wallTimes: false` leaves every wall-clock time out (identical bytes run to run).
  public static func xml(_ results: [CaseResult], wallTimes: Bool, wallUs: Int64) -> String {
    let total = SuiteSummary(results)
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<testsuites name=\"lifesim\"\(counts(total))\(wallTimes ? time(wallUs) : "")>\n"
    var files: [String] = []
    var byFile: [String: [CaseResult]] = [:]
    for r in results {
      if byFile[r.file] == nil { files.append(r.file) }
      byFile[r.file, default: []].append(r)
    }
    for file in files {
      let cases = byFile[file] ?? []
      let wall = cases.reduce(Int64(0)) { $0 + $1.wallUs }
      out += "  <testsuite name=\"\(escape(file))\"\(counts(SuiteSummary(cases)))\(wallTimes ? time(wall) : "")>\n"
      for r in cases { out += testcase(r, wallTimes: wallTimes) }
      out += "  </testsuite>\n"
    }
    out += "</testsuites>\n"
    return out
  }

  private static func testcase(_ r: CaseResult, wallTimes: Bool) -> String {
    var out = "    <testcase classname=\"\(escape(r.file))\" name=\"\(escape(r.name))\"\(wallTimes ? time(r.wallUs) : "")>\n"
    out += "      <properties>\n"
    var properties = [("ios", "\(r.ios)"), ("scenes", "\(r.scenes)"), ("seed", "\(r.seed)"),
                      ("virtual_seconds", VirtualTime.format(r.virtualUs))]
    if wallTimes { properties.append(("wall_seconds", VirtualTime.format(r.wallUs))) }
    if let log = r.logPath { properties.append(("log", log)) }
    for (name, value) in properties {
      out += "        <property name=\"\(name)\" value=\"\(escape(value))\"/>\n"
    }
    out += "      </properties>\n"
    let body = ([r.message.map { m in m + (r.at.map { "  (\($0))" } ?? "") } ?? "", "reproduce: \(r.reproduce)"]
      + (r.logPath.map { ["log: \($0)"] } ?? []) + (r.trace.isEmpty ? [] : ["trace:"] + r.trace)).joined(separator: "\n")
    switch r.status {
    case .passed: break
    case .skipped: out += "      <skipped message=\"\(escape(r.message ?? ""))\"/>\n"
    case .failed:
      let kind = r.message?.hasPrefix("unexpected termination") == true ? "termination"
        : r.message?.hasPrefix("diagnostic ") == true ? "diagnostic" : "expectation"
      out += "      <failure message=\"\(escape(r.message ?? "the run failed"))\" type=\"\(kind)\">\(escape(body, inAttribute: false))</failure>\n"
    case .error:
      out += "      <error message=\"\(escape(r.message ?? "script error"))\" type=\"script error\">\(escape(body, inAttribute: false))</error>\n"
    }
    // After the verdict, as the JUnit schema orders a test case.
    if !r.diagnostics.isEmpty {
      let lines = r.diagnostics.map { "diagnostic \($0.code): \($0.message)" }.joined(separator: "\n")
      out += "      <system-out>\(escape(lines, inAttribute: false))</system-out>\n"
    }
    out += "    </testcase>\n"
    return out
  }

  private static func counts(_ s: SuiteSummary) -> String {
    " tests=\"\(s.cases)\" failures=\"\(s.failed)\" errors=\"\(s.errors)\" skipped=\"\(s.skipped)\""
  }

  private static func time(_ us: Int64) -> String { " time=\"\(VirtualTime.format(us))\"" }

  /// Text for an attribute (line breaks as `&#10;`) or an element: the five markup characters
  /// escaped, control characters XML 1.0 forbids left out.
  static func escape(_ s: String, inAttribute: Bool = true) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for scalar in s.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\n": out += inAttribute ? "&#10;" : "\n"
      case "\t", "\r": out.unicodeScalars.append(scalar)
      default:
        if scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF { out.unicodeScalars.append(scalar) }
      }
    }
    return out
  }
}
