import EventStore
import JSON
import Lifecycle

/// `export --format tables -o DIR`: runs, events and state intervals of any number of logs as
/// JSON Lines with fixed column names and types (none an SQL keyword), and `schema.sql`, which
/// makes DuckDB views over them with explicit types (docs/analytics.md has the queries).
/// Each file goes through its own `ExportSink` (the command's: it appears whole or not at all).
package struct TablesExport {
  package static let files = ["runs.jsonl", "events.jsonl", "states.jsonl", "schema.sql"]
  private let runs: any ExportSink
  private let events: any ExportSink
  private let states: any ExportSink
  private let schema: any ExportSink

  /// `sinks`: one for each of `files`, in that order.
  package init(sinks: [any ExportSink]) {
    precondition(sinks.count == Self.files.count, "one sink for each of TablesExport.files")
    runs = sinks[0]; events = sinks[1]; states = sinks[2]; schema = sinks[3]
  }

  /// One run's rows.
  package func add(_ run: RunTable, log: String) {
    let id = JSONValue.string(run.identity.id)
    let outcome = RunOutcome(run.outcome)
    let status = run.status == Status.ok ? "passed" : run.status == Status.failed ? "failed" : "error"
    runs.write(JSONValue.object([
      ("run_id", id), ("scenario", .string(run.identity.scenario)), ("scenario_path", .string(run.identity.scenarioPath)),
      ("app_path", .string(run.identity.appPath)), ("ios", (try? Profile(json: run.header.profile)).map { .int(Int64($0.ios)) } ?? .null),
      ("scenes", .bool(run.header.scenes)), ("seed", .int(run.header.seed)), ("status", .string(status)),
      ("final_state", RunOutcome.json(outcome.state)), ("expectations_passed", outcome.expectationsPassed.map(JSONValue.int) ?? .null),
      ("expectations_failed", outcome.expectationsFailed.map(JSONValue.int) ?? .null), ("terminations", .int(Int64(outcome.terminations.count))),
      ("termination_reasons", .array(outcome.terminations.map { RunOutcome.json($0.reason) })),
      ("termination_categories", .array(outcome.terminations.map { RunOutcome.json($0.category) })),
      ("error_message", RunOutcome.json(outcome.error)), ("events", .int(run.lastSeq)), ("end_us", .int(run.trailer?.t ?? run.lastUs)),
      ("complete", .bool(run.trailer != nil)), ("log_path", .string(log)),
    ]).canonicalText)
    // A run that has had several scenes names each event's scene; a one-scene run's lines keep
    // their bytes, and the view reads its missing `scene` as null.
    let scenes = run.state.severalScenesSeen
    for row in run.rows {
      let source = row.source
      let scene: [(String, JSONValue)] = scenes ? [("scene", row.scene.map(JSONValue.string) ?? .null)] : []
      events.write(JSONValue.object([
        ("run_id", id), ("seq", .int(row.seq)), ("t_us", .int(row.t)), ("kind", .string(row.kind.rawValue)),
        ("event_name", .string(row.name)), ("class_name", row.className.map(JSONValue.string) ?? .null),
        ("instance", row.instance.map(JSONValue.int) ?? .null), ("depth", row.depth.map(JSONValue.int) ?? .null),
        ("src_file", source.map { .string($0.file) } ?? .null), ("src_line", source.map { .int($0.line) } ?? .null),
        ("from_state", row.from.map(JSONValue.string) ?? .null), ("to_state", row.to.map(JSONValue.string) ?? .null),
        ("duration_us", row.durationUs.map(JSONValue.int) ?? .null), ("killed", .bool(row.killed)),
        ("termination_category", row.termination.map { .string($0.category.rawValue) } ?? .null),
        ("foreground", row.termination.map { .bool($0.foreground) } ?? .null),
        ("value_json", row.details),
      ] + scene).canonicalText)
    }
    for s in run.intervals {
      states.write(JSONValue.object([
        ("run_id", id), ("layer", .string(s.layer)), ("state", .string(s.state)), ("start_seq", .int(s.startSeq)),
        ("end_seq", .int(s.endSeq)), ("start_us", .int(s.startUs)), ("end_us", .int(s.endUs)),
      ]).canonicalText)
    }
  }

  /// Writes `schema.sql` and puts the four files in place.
  package func commit() throws {
    schema.write(Self.schemaText)
    for sink in [runs, events, states, schema] { try sink.commit() }
  }

  package func discard() { [runs, events, states, schema].forEach { $0.discard() } }

  /// DuckDB views with explicit types; paths are relative: run it from the folder
  /// (`cd DIR && duckdb -init schema.sql`).
  static let schemaText = """
    -- lifesim tables (lifesim export LOG… --format tables -o DIR). From DIR: duckdb -init schema.sql
    CREATE OR REPLACE VIEW runs AS SELECT * FROM read_json('runs.jsonl', format = 'newline_delimited', columns = {
      run_id: 'VARCHAR', scenario: 'VARCHAR', scenario_path: 'VARCHAR', app_path: 'VARCHAR', ios: 'BIGINT',
      scenes: 'BOOLEAN', seed: 'BIGINT', status: 'VARCHAR', final_state: 'VARCHAR', expectations_passed: 'BIGINT',
      expectations_failed: 'BIGINT', terminations: 'BIGINT', termination_reasons: 'JSON', termination_categories: 'JSON', error_message: 'VARCHAR',
      events: 'BIGINT', end_us: 'BIGINT', complete: 'BOOLEAN', log_path: 'VARCHAR'});
    CREATE OR REPLACE VIEW events AS SELECT * FROM read_json('events.jsonl', format = 'newline_delimited', columns = {
      run_id: 'VARCHAR', seq: 'BIGINT', t_us: 'BIGINT', kind: 'VARCHAR', event_name: 'VARCHAR', class_name: 'VARCHAR',
      instance: 'BIGINT', depth: 'BIGINT', src_file: 'VARCHAR', src_line: 'BIGINT', from_state: 'VARCHAR',
      to_state: 'VARCHAR', duration_us: 'BIGINT', killed: 'BOOLEAN', termination_category: 'VARCHAR', foreground: 'BOOLEAN',
      value_json: 'JSON', scene: 'VARCHAR'});
    CREATE OR REPLACE VIEW states AS SELECT *, end_us - start_us AS duration_us FROM read_json('states.jsonl', format = 'newline_delimited', columns = {
      run_id: 'VARCHAR', layer: 'VARCHAR', state: 'VARCHAR', start_seq: 'BIGINT', end_seq: 'BIGINT', start_us: 'BIGINT', end_us: 'BIGINT'});
    """
}
