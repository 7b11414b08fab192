import ArgumentParser
import EventStore
import Lifecycle

struct Export: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write a run's timeline as Perfetto JSON, a Mermaid diagram, or plain events.",
    discussion: """
      chrome-trace: the Chrome Trace Event format; open it at ui.perfetto.dev. One process per
      run; a track each for the system, the app state, the app and scene delegates, every view
      controller and the background tasks; callbacks as spans with their virtual durations,
      inputs and kills as instants, and backgroundTimeRemaining as a counter that counts down
      each second while the app runs in the background, to its expiration point and to 0 (the
      full allowance elsewhere).
      mermaid: a sequenceDiagram (User, UIKit, AppDelegate, SceneDelegate, each controller),
      with the app's log messages as notes; split into several diagrams, each under Mermaid's
      50,000-character limit.
      A file at -o appears only when complete; an export that fails leaves nothing there.
      jsonl: the events, one JSON object a line, without the hash member.

      Examples:
        lifesim export run.lifelog --format chrome-trace -o run.json
        lifesim export run.lifelog --format mermaid
      """
  )

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case chromeTrace = "chrome-trace", mermaid, jsonl
  }

  @Argument(help: "The log to export.")
  var log: String

  @Option(help: "chrome-trace, mermaid or jsonl.")
  var format: Format

  @OptionGroup var out: OutputOptions

  func run() throws {
    defer { Terminal.flush() }
    let reader: LogReader
    do { reader = try LogReader(path: log) } catch {
      Terminal.error(error.description)
      throw ExitCode(Status.trouble)
    }
    let sink: OutputSink
    do { sink = try OutputSink(path: out.output, overwrite: out.force, inputs: [log]) } catch {
      Terminal.error("\(error)")
      throw ExitCode(Status.trouble)
    }
    do {
      try write(reader, to: sink)
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

  private func write(_ reader: LogReader, to sink: OutputSink) throws {
    switch format {
    case .jsonl:
      while let line = try reader.next() {
        if case let .event(e) = line { sink.write(String(decoding: e.canonicalBody, as: UTF8.self)) }
      }
    case .chromeTrace:
      var exporter = ChromeTraceExporter(profile: try? Profile(json: reader.header.profile), sink: sink)
      while let line = try reader.next() {
        if case let .event(e) = line { exporter.add(try Event(e)) }
      }
      exporter.finish()
    case .mermaid:
      var exporter = MermaidExporter(sink: sink)
      while let line = try reader.next() {
        if case let .event(e) = line { exporter.add(try Event(e)) }
      }
      exporter.finish()
    }
  }
}
