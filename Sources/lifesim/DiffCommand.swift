import ArgumentParser
import EventStore
import JSON
import Lifecycle
import Render
import RunComparison
import LifecycleLog

struct Diff: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract: "Compare two runs event by event: first divergence, hunks, and both outcomes.",
    discussion: helpText("""
      Events are compared by kind, name, target and fields, ignoring seq, h and the script
      line (at); with --ignore-time, also ignoring virtual time. The alignment streams with a
      bounded look-ahead window, so memory stays flat on million-event logs. Each log's form,
      event sequence and trailer are checked; its hash chain is not (lifesim verify does that).
      What set the runs up differently (iOS, scenes, knobs, seed, scripts) is shown first. Two
      events whose trace lines read the same show the fields that differ ([handled: false]); a
      hunk that is mostly the same events at other times is named a time shift. Once a run has
      had two scenes at once (iPad), each hunk's @@ line names the scenes its changed events
      belong to (docs/diff.md).

      Exit status: 0 same, 1 different, 2 trouble (as diff), including a log whose run stopped
      on a script error (its trailer says so) or that ends without a trailer (the diff is
      printed all the same).

      Example:
        lifesim diff notes.lifelog overrun.lifelog --context 5
      """)
  )

  @Argument(help: "The first log (-).")
  var a: String

  @Argument(help: "The second log (+).")
  var b: String

  @Option(help: "Unchanged events shown around each hunk.")
  var context: Int = 3

  @Flag(help: "Compare events without their virtual time.")
  var ignoreTime = false

  @Flag(help: "JSON Lines: one line a hunk, then a final line with the verdict and both outcomes (docs/json.md).")
  var json = false

  func validate() throws {
    guard (0...1000).contains(context) else { throw ValidationError("--context must be from 0 to 1000") }
  }

  func run() throws {
    defer { Terminal.flush() }
    // Each log is read and checked on a thread of its own, ahead of the comparison.
    let ra: BackgroundLogScanner, rb: BackgroundLogScanner
    do {
      ra = BackgroundLogScanner(try RecordedLog.scanner(a))
      rb = BackgroundLogScanner(try RecordedLog.scanner(b))
    } catch {
      Terminal.error(error.description)
      throw ExitCode(Status.trouble)
    }
    var differ = EventDiffer(context: context, ignoreTime: ignoreTime,
                             scenes: (HunkScenes.namer(for: ra.header), HunkScenes.namer(for: rb.header)))
    var renderer = HunkRenderer(a: a, b: b)
    writeHeaders(HeaderComparison(a: ra.header, b: rb.header))
    let json = self.json  // read once: a flag's wrapped value costs hundreds of instructions a read
    let output: (EventDiffer.Hunk) throws -> Void = { hunk in
      if json {
        JSONLines.write(hunk.json)
        return
      }
      let text = try renderer.utf8(hunk)
      // The header and the text written in turn: joining them first copied every hunk once more.
      let header = HunkRenderer.header(hunk)
      Terminal.write(utf8: TerminalColour.enabled ? Array(TerminalColour.paint(String(decoding: header, as: UTF8.self), "36").utf8) : header)
      if !text.isEmpty { Terminal.write(utf8: text) }
    }
    var progress = Progress("diff")
    defer { progress.finish() }
    // No call a line where nothing is shown: a tick through the captured progress cost 3 % of a diff.
    let tick: () -> Void = progress.enabled ? { progress.tick() } : {}
    do {
      try differ.run(a: ra, b: rb, onEvent: tick, emit: output)
    } catch {
      Terminal.error("\(error)")
      throw ExitCode(Status.trouble)
    }
    let outcome = OutcomeComparison(a: ra.ending, b: rb.ending)
    // A log of a run that stopped on a script error is trouble, as replaying it is.
    // So is a log cut off before its trailer: how its run ended is unknown.
    let troubles = [(a, ra.ending), (b, rb.ending)].compactMap { path, ending in
      ending?.scriptError.map { "\(path): the recorded run stopped on a script error: \($0)" }
        ?? ending?.cutOffAfter.map { "\(path): \(LogEnding.noTrailerMessage(afterEvent: $0))" }
    }
    let status = !troubles.isEmpty ? Status.trouble
      : differ.firstDivergence == nil && outcome.same ? Status.ok : Status.failed
    if json {
      JSONLines.end(status: status, [("same", .bool(differ.firstDivergence == nil && outcome.same)),
                                     ("firstDivergence", differ.firstDivergence?.json ?? .null), ("outcomes", outcome.json)])
    } else {
      if !ignoreTime, let note = renderer.timeShiftNote { Terminal.write(note) }
      (differ.firstDivergence?.text ?? ["No difference in the events."]).forEach(Terminal.write)
      Terminal.write(outcome.table(a: a, b: b))
    }
    for error in troubles { Terminal.error(error) }
    throw ExitCode(status)
  }

  /// The header differences, first: they explain the event differences that follow.
  private func writeHeaders(_ headers: HeaderComparison) {
    if json {
      JSONLines.begin("diff")
      if !headers.differences.isEmpty { JSONLines.write(headers.json) }
    } else {
      Terminal.write("--- \(a)")
      Terminal.write("+++ \(b)")
      for line in headers.text { Terminal.write(line) }
    }
  }
}
