#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import EventStore
import Lifecycle
import LifecycleLog
import Render

struct Export: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write a run's timeline as Perfetto JSON, an HTML page, a Mermaid diagram, plain events, or tables for DuckDB.",
    discussion: helpText("""
      chrome-trace: the Chrome Trace Event format; open it at ui.perfetto.dev. One process per
      run, named after the scenario, with a pid derived from the run (two traces open side by
      side); a track each for the system, the app state, the app and scene delegates, every view
      controller and each background task; callbacks and tasks as spans, inputs, app calls,
      notifications, expectations and kills as instants on their target's track, every event
      with its seq and virtual time (t_us) in its args; backgroundTimeRemaining, and each
      continued task's progress (%), as counters.
      --clock sequence (the default) gives every event its own tick (ts = seq), so order and
      nesting show at any zoom; --clock virtual puts events at their virtual time (callbacks
      last their virtual durations, and the counter counts down each second while the app runs
      in the background, to its expiration point and to 0).
      mermaid: a sequenceDiagram (User, UIKit, AppDelegate, SceneDelegate, each controller),
      with the app's log messages as notes; split into several diagrams, each under Mermaid's
      50,000-character limit.
      A file at -o appears only when complete; an export that fails leaves nothing there.
      jsonl: the events, one JSON object a line, without the hash member.
      html: one self-contained page (no request of any kind; opens from file://): swimlanes
      over virtual time (process, applicationState, scenes, each controller's appearance, the
      background time left, background tasks), every callback, app call, notification and input
      as a mark with its details on hover or click, kills and failed expectations as flags, a
      sequence view with one column per event, a search box, the outcome and how to reproduce.
      tables: any number of logs into the folder at -o: runs.jsonl, events.jsonl, states.jsonl
      and schema.sql (DuckDB views with explicit types; docs/analytics.md has the queries).

      Examples:
        lifesim export run.lifelog --format chrome-trace -o run.json
        lifesim export run.lifelog --format html -o run.html
        lifesim export runs/*.lifelog --format tables -o tables
        lifesim export run.lifelog --format mermaid
      """)
  )

  @Argument(help: "The log to export (tables: one or more).")
  var logs: [String]

  @Option(help: "chrome-trace, mermaid, jsonl, html or tables.")
  var format: ExportFormat

  @Option(help: "chrome-trace's time axis: sequence (every event its own tick, the virtual time in its args) or virtual.")
  var clock: TraceClock = .sequence

  @OptionGroup var out: OutputOptions

  func run() throws {
    defer { Terminal.flush() }
    if format == .tables { try exportTables() } else { try exportOne() }
  }

  /// One log in a single-log format to standard output or the file at -o.
  private func exportOne() throws {
    guard logs.count == 1, let log = logs.first else {
      Terminal.error("export --format \(format.rawValue) takes one log, not \(logs.count) (only --format tables takes several)")
      throw ExitCode(Status.trouble)
    }
    let write: (any ExportSink) throws -> Void
    do { write = try format.writer(for: log, clock: clock) } catch {
      Terminal.error(error.description)
      throw ExitCode(Status.trouble)
    }
    let sink: any ExportSink
    do { sink = try outputSink(path: out.output, overwrite: out.force, inputs: [log]) } catch {
      Terminal.error("\(error)")
      throw ExitCode(Status.trouble)
    }
    do {
      try write(sink)
    } catch {
      sink.discard()
      Terminal.error("\(log): \(error)")
      throw ExitCode(Status.trouble)
    }
    do { try sink.commit() } catch {
      Terminal.error("\(error)")
      throw ExitCode(Status.trouble)
    }
  }

  /// `--format tables`: every log read in turn into the four files, which appear together.
  private func exportTables() throws {
    guard let folder = out.output else {
      Terminal.error("export --format tables needs a folder: -o DIR")
      throw ExitCode(Status.trouble)
    }
    let existed = POSIXFile.exists(folder)
    let tables: TablesExport
    do { tables = TablesExport(sinks: try FileSink.files(TablesExport.files, in: folder, overwrite: out.force, inputs: logs)) } catch {
      Terminal.error("\(error)")
      throw ExitCode(Status.trouble)
    }
    func fail(_ message: String) -> ExitCode {
      tables.discard()
      if !existed { POSIXFile.removeDirectory(folder) }
      Terminal.error(message)
      return ExitCode(Status.trouble)
    }
    for log in logs {
      let reader: LogReader
      do { reader = try RecordedLog.reader(log) } catch { throw fail(error.description) }
      do { tables.add(try RunTable(reading: reader), log: log) } catch { throw fail("\(log): \(error)") }
    }
    do { try tables.commit() } catch {
      Terminal.error("\(error)")
      throw ExitCode(Status.trouble)
    }
  }
}

extension ExportFormat: ExpressibleByArgument {}

extension TraceClock: ExpressibleByArgument {}
