import EventStore
import JSON
import ScriptHost

/// `explore merge`: shards' folders into one. Everything read from a shard's folder is checked
/// before it is used (`ExploreReport(json:)`), and the merged folder is checked before anything
/// is written (`FindingFolder`): merging into one of the folders merged is always refused.
extension ExploreOutput {
  /// Merges the reports in `dirs` into `out`, copying each kept finding's scenario and log.
  public static func merge(_ dirs: [String], into out: String, overwrite: Bool = false) throws(ScriptError) -> ExploreReport {
    let files = dirs.map { $0 + "/report.json" }
    try refuseRepeats(files)
    var reports: [ExploreReport] = []
    for file in files { reports.append(try readReport(file)) }
    var (merged, sources) = try ExploreReport.merge(reports, files: files)
    let kept = merged.findings.indices.map { i in (dir: dirs[sources[i]], name: merged.findings[i].scenario) }
    let inputs = files + kept.flatMap { [$0.dir + "/" + $0.name, $0.dir + "/" + logName($0.name)] }
    for input in inputs.dropFirst(files.count) { try FindingFolder.requirePlainFile(input) }
    try FindingFolder.check(FindingFolder.files(out, findings: kept.count), inputs: inputs, overwrite: overwrite)
    try FindingFolder.create(out)
    for (i, finding) in kept.enumerated() {
      let text = try readScriptFile(finding.dir + "/" + finding.name)
      // The scenario names the app relative to its folder: rewrite it for the new folder.
      try FindingFolder.save(renumber(text, to: i + 1, from: finding.dir, into: out), to: out + "/" + FindingFolder.scenario(i + 1))
      try FindingFolder.copy(finding.dir + "/" + logName(finding.name), to: out + "/" + FindingFolder.log(i + 1))
      merged.findings[i].scenario = FindingFolder.scenario(i + 1)
    }
    try FindingFolder.save(merged.json.canonicalText + "\n", to: out + "/report.json")
    return merged
  }

  /// A report given twice would count its runs twice: each is merged once, however it is spelled.
  private static func refuseRepeats(_ files: [String]) throws(ScriptError) {
    var seen: [FileIdentity: String] = [:]
    for file in files {
      guard let identity = FileIdentity(path: file) else { continue }
      if let first = seen[identity] { throw ScriptError("\(file): is the report \(first) again; give each folder once") }
      seen[identity] = file
    }
  }

  /// A shard's report, read and checked; errors name `file`.
  static func readReport(_ file: String) throws(ScriptError) -> ExploreReport {
    let bytes: [UInt8]
    switch POSIXFile.read(file, upTo: ExploreReport.bytesMax + 1) {
    case let .success(read): bytes = read
    case let .failure(error): throw ScriptError("\(file): cannot read the report (\(POSIXFile.describe(error.code)))")
    }
    if bytes.count > ExploreReport.bytesMax {
      throw ScriptError("\(file): larger than \(ExploreReport.bytesMax >> 20) MiB; not a report explore writes")
    }
    let json: JSONValue
    do { json = try JSONParser.parseDocument(bytes) } catch {
      // The reason may quote the report (a duplicate key): its control characters are escaped.
      throw ScriptError("\(file): not JSON (\(LuaStringLiteral.comment(error.reason)) at byte \(error.offset))")
    }
    do { return try ExploreReport(json: json) } catch { throw ScriptError("\(file): \(error.message)") }
  }

  /// `finding-N.lifelog` for `finding-N.lua`.
  private static func logName(_ scenario: String) -> String { scenario.dropLast(".lua".count) + ".lifelog" }

  /// The finding's first line says its number; its `app = "…"` is relative to `from`.
  private static func renumber(_ text: String, to number: Int, from: String, into out: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if let first = lines.first, first.hasPrefix("-- Finding "), let colon = first.firstIndex(of: ":") {
      lines[0] = "-- Finding \(number)" + first[colon...]
    }
    let declaration = "scenario { app = "
    for i in lines.indices where lines[i].hasPrefix(declaration) {
      let rest = lines[i].utf8.dropFirst(declaration.utf8.count)
      guard let (bytes, length) = LuaStringLiteral.unquote(rest),
            let app = String(validating: bytes, as: UTF8.self), !app.utf8.contains(0) else { continue }
      let absolute = app.hasPrefix("/") ? app : from + "/" + app
      lines[i] = declaration + LuaStringLiteral.quote(relativePath(from: out, to: absolute))
        + String(decoding: rest.dropFirst(length), as: UTF8.self)
    }
    return lines.joined(separator: "\n")
  }
}
