import EventStore
import JSON
import Lifecycle

/// The closing paragraph of `run` and `replay`.
package enum OutcomeText {
  /// `failedDiagnostic`: the code of the diagnostic that failed a `--strict` run.
  package static func paragraph(state: LifecycleState, seed: Int64?, events: Int64, rerun: String?, failedDiagnostic: String? = nil) -> String {
    var parts: [String] = []
    parts.append("Outcome: the app is \(state.appState.rawValue.replacingUnderscores) after \(events) events.")
    parts.append("Expectations: \(state.expectationsPassed) passed, \(state.expectationsFailed) failed.")
    if state.terminations.isEmpty {
      parts.append("No termination.")
    } else {
      parts.append("Terminations: " + state.terminations.enumerated().map { i, t in
        let place = state.terminationsInForeground.indices.contains(i) && state.terminationsInForeground[i] ? "foreground" : "background"
        return "\(t.reason.rawValue)\(t.code.map { " \($0)" } ?? "") (\(t.description)) [\(TerminationCategory(t).rawValue), \(place)]"
      }.joined(separator: "; ") + ".")
    }
    if !state.unexpectedFaults.isEmpty {
      parts.append("Failed: unexpected termination (" + state.unexpectedFaults.map(\.reason.rawValue).joined(separator: ", ")
                   + "); name it with expect_terminated if the scenario means it.")
    }
    if let failedDiagnostic { parts.append("Failed: diagnostic \(failedDiagnostic) (--strict).") }
    let stored = state.store.sorted { $0.key < $1.key }.map { "\($0.key) = \(abbreviated($0.value))" }
    parts.append(stored.isEmpty ? "Nothing stored." : "Stored: " + stored.joinedText(separator: ", ") + ".")
    if let seed { parts.append("Seed \(seed)" + (rerun.map { " (reproduce: \($0))" } ?? "") + ".") }
    // Stored keys, termination descriptions and the scenario's path come from scripts or a log.
    return TerminalText.visible(parts.joinedText(separator: " "))
  }

  /// Longer stored values are cut to their first `abbreviatedCharacters` in an outcome (the log
  /// and `replay --state` keep them whole).
  package static let longestValueCharacters = 80
  package static let abbreviatedCharacters = 60

  /// A stored value as its JSON text, cut after 60 characters when longer than 80, saying how long it is.
  package static func abbreviated(_ value: JSONValue) -> String {
    let text = value.canonicalText
    guard text.count > longestValueCharacters else { return text }
    return "\(text.prefix(abbreviatedCharacters))… (\(text.utf8.count) bytes)"
  }
}
