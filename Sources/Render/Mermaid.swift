import Lifecycle

/// Streams a run as Mermaid `sequenceDiagram`s, each under Mermaid's 50,000-character limit.
package struct MermaidExporter {
  package static let characterLimit = 50_000
  /// Room left for the closing lines of a part.
  package static let margin = 2_000
  /// Longer `log` and expectation messages are cut here in their note.
  package static let longestLogCharacters = 200

  package let sink: any ExportSink
  private var part = 1
  private var body: [String] = []
  private var size = 0
  private var participants: [String] = []
  /// The run's state, folded as it goes: which scene a target belongs to.
  private var state = LifecycleState()

  package init(sink: any ExportSink) { self.sink = sink }

  private static func id(_ name: String) -> String {
    String(name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
  }

  /// Mermaid text: `#`, `;`, `%`, `<`, `>` and `&` written as entity codes (`%%` would start a
  /// comment that hides the rest of the line, `;` end the statement, and Mermaid reads `<br>` and
  /// entities as markup), no line breaks.
  private static func text(_ s: String) -> String {
    var out = ""
    for c in s {
      switch c {
      case "#": out += "#35;"
      case ";": out += "#59;"
      case "%": out += "#37;"
      case "<": out += "#60;"
      case ">": out += "#62;"
      case "&": out += "#38;"
      case "\n", "\r": out += " "
      default: out.append(c)
      }
    }
    return out
  }

  private mutating func participant(_ name: String) -> String {
    let pid = Self.id(name)
    if !participants.contains(name) { participants.append(name) }
    return pid
  }

  private mutating func line(_ s: String) {
    if size + s.utf8.count + 1 + headerSize > Self.characterLimit - Self.margin { flush(final: false) }
    body.append(s)
    size += s.utf8.count + 1
  }

  private var headerSize: Int {
    participants.reduce(40) { $0 + 30 + 2 * $1.utf8.count }
  }

  /// Writes one diagram: every part starts with `sequenceDiagram`; parts are separated by a blank line.
  private mutating func flush(final: Bool) {
    guard !body.isEmpty || (final && part == 1) else { return }
    if part > 1 { sink.write("") }
    sink.write("sequenceDiagram")
    if part > 1 { sink.write("  %% lifesim: part \(part), continued") }
    sink.write("  participant User")
    sink.write("  participant UIKit")
    for p in participants { sink.write("  participant \(Self.id(p)) as \(Self.text(p))") }
    for l in body { sink.write(l) }
    body.removeAll()
    size = 0
    part += 1
  }

  package mutating func add(_ event: Event) {
    let time = VirtualTime.format(event.t)
    state.evolve(event)
    switch event.body {
    case let .inputPerformed(input, _):
      line("  User->>UIKit: \(Self.text(input.traceText)) @\(time)s")
    case let .callbackDelivered(cb, target, handled, _, arguments):
      let p = participant(target.hasPrefix("BackgroundTask#") || target.hasPrefix("after#") ? "AppDelegate" : SceneTrackName.of(target, in: state))
      let action = arguments.payload?["action"]?.stringValue.map { " " + $0 } ?? ""
      line("  UIKit\(handled ? "->>" : "-->>")\(p): \(Self.text(cb.signature + action))")
    case let .returned(name, target, used, _, _):
      guard used > 0 else { return }
      let p = participant(target.hasPrefix("BackgroundTask#") || target.hasPrefix("after#") || target == "NotificationCenter" ? "AppDelegate" : SceneTrackName.of(target, in: state))
      line("  \(p)-->>UIKit: \(Self.text(name)) returned after \(VirtualTime.format(used))s")
    case let .appCalled(.log(message), _):
      line("  Note right of UIKit: log: \(Self.text(Self.shortened(message)))")
    case let .appCalled(call, _):
      line("  Note right of UIKit: app calls \(Self.text(call.name))")
    case let .applicationStateChanged(from, to):
      line("  Note over UIKit: applicationState \(from.rawValue) → \(to.rawValue)")
    case let .terminated(t):
      line("  Note over UIKit: terminated \(t.reason.rawValue)\(t.code.map { " \($0)" } ?? "") @\(time)s")
    case .suspended:
      line("  Note over UIKit: suspended @\(time)s")
    case let .crashed(name, target, message, _):
      line("  Note over UIKit: crash in \(Self.text(target)).\(Self.text(name)): \(Self.text(String(message.prefix(120))))")
    case let .expectationChecked(name, passed, message, _):
      line("  Note over User: \(passed ? "passed" : "FAILED") \(Self.text(name))\(message.isEmpty ? "" : ": " + Self.text(Self.shortened(message)))")
    case .sceneActivationChanged, .sceneConnected, .sceneDisconnected, .sceneSessionChanged, .rootBuilt, .pushed, .popped,
         .presented, .dismissed, .tabSelected, .protectedDataChanged, .restorationChanged, .processStarted, .launchContinued, .resumed,
         .notificationPosted, .noted:
      break
    }
  }

  package mutating func finish() { flush(final: true) }

  /// `message`, cut after `longestLogCharacters` characters.
  private static func shortened(_ message: String) -> String {
    message.count > longestLogCharacters ? message.prefix(longestLogCharacters) + "…" : message
  }
}
