import Lifecycle
import Render
import Suite

/// Which run of the battery confirms each of the scan's diagnostics.
extension ScanCheck {
  /// Gives each of the scan's diagnostics what the runs say of it (Confirmation): the first case
  /// whose run shows it through the model, with the command that runs that case again.
  package func confirm(_ result: inout ScanResult, _ outcome: Outcome, command: [String]) {
    // A failed case (the trap, the crash) shows a finding more plainly than a passing one's warning.
    let ordered = outcome.results.sorted { ($0.status == .failed ? 0 : 1, $0.index) < ($1.status == .failed ? 0 : 1, $1.index) }
    for app in result.apps.indices {
      for index in result.apps[app].diagnostics.indices {
        let diagnostic = result.apps[app].diagnostics[index]
        result.apps[app].diagnostics[index].confirmation = confirmation(of: diagnostic, ordered, command: command,
                                                                        method: result.apps[app].methods.first { $0.place == diagnostic.place })
      }
    }
  }

  /// `method`: the delegate method at the diagnostic's place, if it is one; a completion never
  /// called confirms only its own method's finding.
  private func confirmation(of diagnostic: ScanDiagnostic, _ ordered: [CaseResult], command: [String], method: DelegateMethod?) -> Confirmation {
    guard let evidence = Confirmation.evidence(for: diagnostic.code) else {
      return .unconfirmed(why: "no case of the battery shows \(diagnostic.code) yet")
    }
    let shows = ordered.first { r in
      switch evidence {
      case .runtimeDiagnostic: return r.diagnostics.contains { $0.code == diagnostic.code && (diagnostic.handler == nil || $0.handler == diagnostic.handler) }
      case let .failureMessage(text): return r.status == .failed && (r.message ?? "").contains(text)
      case let .failedCase(name): return r.status == .failed && r.name.hasPrefix(name + " [")
      case let .completionNotCalled(handlers):
        let own = method.flatMap { Callback(signature: $0.selector) }.map { [$0.signature] } ?? handlers
        return r.returnedWithoutCompletion.contains { handlers.contains($0) && own.contains($0) }
      }
    }
    guard let r = shows else { return .unconfirmed(why: "no case of the battery on this matrix showed it") }
    let scenario = r.name.range(of: " [iOS ", options: .backwards).map { String(r.name[..<$0.lowerBound]) } ?? r.name
    let words = command + ["--check", "--case", scenario, "--ios", String(r.ios)] + (r.sdk.map { ["--sdk", String($0)] } ?? [])
    return .confirmed(scenario: r.name, ios: r.ios, sdk: r.sdk, reproduce: ShellCommand.line(words))
  }
}
