import EventStore
import Lifecycle

/// Writes a finding as a normal scenario: a comment with the signature and the seed, the
/// `scenario { … }` that reproduces the run, one verb per line, and for an invariant, the
/// invariant's own function checked with `expect` after the last verb.
public enum FindingScenario {
  /// The scenario text. `appReference`: the app's path as the scenario should name it
  /// (relative to the scenario's folder); `specSource`: the spec, for invariant findings.
  public static func text(_ finding: ExploreFinding, number: Int, appReference: String, profile: Profile,
                          seed: Int64, specSource: String?, invariantLines: ClosedRange<Int>?) -> String {
    var lines = [
      "-- Finding \(number): \(finding.signature.text)",
      "-- Found by lifesim explore --seed \(seed) (run \(finding.run)), shrunk to \(finding.inputs.count) verbs.",
    ]
    if !finding.detail.isEmpty { lines.append("-- " + finding.detail.split(separator: "\n").joined(separator: " ")) }
    lines.append("scenario { app = \(luaString(appReference)), ios = \(profile.ios), scenes = \(profile.scenes), seed = \(seed) }")
    var check: String?
    if finding.signature.reason == "invariant", let specSource, let range = invariantLines,
       let function = functionText(specSource, range) {
      lines.append("local invariant = \(function)")
      check = "expect(invariant(), \(luaString("invariant \"\(finding.signature.place)\" holds")))"
    }
    lines += finding.inputs.map(call)
    if let check { lines.append(check) }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The verb call that performs `input`, as a scenario writes it.
  public static func call(_ input: Input) -> String {
    switch input {
    case let .launch(url): return url.map { "launch { url = \(luaString($0)) }" } ?? "launch()"
    case .prewarm: return "prewarm()"
    case .home: return "home()"
    case .lock: return "lock()"
    case .unlock: return "unlock()"
    case let .interrupt(kind): return "interrupt(\(luaString(kind.rawValue)))"
    case let .endInterrupt(how): return "end_interrupt(\(luaString(how.rawValue)))"
    case .appSwitcher: return "app_switcher()"
    case let .switchTo(other): return "switch_to(\(other ? "\"other\"" : "\"self\""))"
    case .forceQuit: return "force_quit()"
    case .memoryWarning: return "memory_warning()"
    case .memoryPressure: return "memory_pressure()"
    case let .backgroundLaunch(event): return "background_launch(\(luaString(event.rawValue)))"
    case let .openURL(url): return "open_url(\(luaString(url)))"
    case let .rotate(o): return "rotate(\(luaString(o.rawValue)))"
    case let .push(name): return "push(\(luaString(name)))"
    case .pop: return "pop()"
    case let .present(name, style, navigation):
      var options: [String] = []
      if navigation { options.append("navigation = true") }
      if let style { options.append("style = \(luaString(style.rawValue))") }
      return options.isEmpty ? "present(\(luaString(name)))" : "present(\(luaString(name)), { \(options.joined(separator: ", ")) })"
    case .dismiss: return "dismiss()"
    case let .selectTab(i): return "select_tab(\(i))"
    case let .swipeBack(cancel): return cancel ? "swipe_back { cancel = true }" : "swipe_back()"
    case let .swipeDown(cancel): return cancel ? "swipe_down { cancel = true }" : "swipe_down()"
    case let .advance(us): return "advance(\(seconds(us)))"
    case let .disconnectScene(n): return "disconnect_scene(\(n))"
    case .criticalMemoryPressure: return "memory_pressure(\"critical\")"
    case .timeChange: return "time_change()"
    case .reboot: return "reboot()"
    }
  }

  /// µs as the shortest decimal seconds that reads back as the same µs (`4.9`, `180`, `0.000001`).
  static func seconds(_ us: Int64) -> String {
    let whole = us / 1_000_000
    var fraction = String(us % 1_000_000)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return fraction.isEmpty ? "\(whole)" : "\(whole).\(fraction)"
  }

  /// A Lua string literal.
  static func luaString(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F { out += "\\\(scalar.value)" } else { out.unicodeScalars.append(scalar) }
      }
    }
    return out + "\""
  }

  /// `function() … end` cut from the spec's lines (the invariant's second argument).
  static func functionText(_ source: String, _ range: ClosedRange<Int>) -> String? {
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    guard range.upperBound <= lines.count else { return nil }
    let text = Array(lines[(range.lowerBound - 1)...(range.upperBound - 1)].joined(separator: "\n"))
    let word = Array("function"), close = Array("end")
    guard let start = text.indices.first(where: { text[$0...].starts(with: word) }),
          let end = text.indices.last(where: { text[$0...].starts(with: close) }), end > start else { return nil }
    return String(text[start..<(end + close.count)])
  }
}
