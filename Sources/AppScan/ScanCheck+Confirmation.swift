import Lifecycle
import Render
import Suite

/// Which run of the battery confirms each of the scan's diagnostics.
extension ScanCheck {
  /// Gives each of the scan's diagnostics what the runs say of it (Confirmation): the first case
  /// whose run shows it through the model, with the command that runs that case again. `only`:
  /// the index of the app whose battery ran, when the scan found several.
  package func confirm(_ result: inout ScanResult, _ outcome: Outcome, command: [String], only: Int? = nil) {
    // The battery's own cases before the variants of its choices, and variants that force fewer
    // sites first (their reproduce lines are shortest), then a failed case (the trap, the crash),
    // which shows a finding more plainly than a passing one's warning.
    let rank = { (r: CaseResult) in (r.choices.values.count, r.status == .failed ? 0 : 1, r.index) }
    let ordered = outcome.results.sorted { rank($0) < rank($1) }
    for app in result.apps.indices where only == nil || only == app {
      for index in result.apps[app].diagnostics.indices {
        let diagnostic = result.apps[app].diagnostics[index]
        let sites = outcome.choiceGuards.filter { $0.guards == diagnostic.place }.map(\.site)
        let showing = Self.showingScenarios(of: diagnostic, in: result.apps[app])
        let taskCodes = [Diagnostic.Code.taskOpenAfterExpiration.rawValue, ScanRule.StaticCode.taskNotEnded.rawValue]
        if taskCodes.contains(diagnostic.code), let begun = outcome.unplacedTasks.first(where: { $0.guards == diagnostic.place })?.begun {
          result.apps[app].diagnostics[index].confirmation = .unconfirmed(
            why: "no run reaches it: the scan cannot tell which delegate method calls the beginBackgroundTask at \(begun.file):\(begun.line), so the mirror never begins that task")
          continue
        }
        let windowCall = outcome.windowCalls.first { $0.place == diagnostic.place }?.site
        if let what = Self.windowCallOfCode[diagnostic.code], windowCall == nil {
          result.apps[app].diagnostics[index].confirmation = .unconfirmed(
            why: "no run reaches it: no delegate method the mirror runs reaches this \(what) (the scan cannot tell which does, or only a notification observer does), so the mirror never makes it")
          continue
        }
        var context = EvidenceContext(diagnostic: diagnostic, sites: sites, showing: showing, windowCall: windowCall,
                                      method: result.apps[app].methods.first { $0.place == diagnostic.place }, ordered: ordered)
        context.registration = result.apps[app].registrations.first { $0.place == diagnostic.place }?.identifier
        result.apps[app].diagnostics[index].confirmation = confirmation(context, command: command)
      }
    }
  }

  /// The codes a window call of the mirror shows, and what that call is.
  private static let windowCallOfCode = [
    ScanRule.StaticCode.appWindowNil.rawValue: "read of the app delegate's window",
    ScanRule.StaticCode.windowWithoutScene.rawValue: "UIWindow(frame:)",
  ]

  /// Whether every site case `r` forced false is one of `sites`: no other branch could be what it shows.
  private func forcesOnly(_ sites: [String], _ r: CaseResult) -> Bool {
    r.choices.values.allSatisfy { $0.value || sites.contains($0.site) }
  }

  /// Whether case `r` forced `site` false and its app asked it: the run took that branch.
  private func tookFalse(_ r: CaseResult, _ site: String) -> Bool {
    r.choices.value(of: site) == false && r.forcedSitesReached.contains(site)
  }

  /// Why no run shows a finding whose path some case took (its site false): a case that took it
  /// and failed otherwise says how; else a case of a scenario that exercises the finding's effect
  /// (`showing`) took it and passed, which refutes it.
  private func refutation(sites: [String], showing: [String], _ ordered: [CaseResult]) -> String? {
    // Only cases that forced nothing else false: another site's branch could be what they show.
    let took = ordered.compactMap { r in
      sites.first { tookFalse(r, $0) }.flatMap { site in forcesOnly(sites, r) ? (r, site) : nil }
    }
    if let (r, site) = took.first(where: { $0.0.status == .failed }) {
      return "no case showed it as its code says; with \(site) false, \(r.name) failed: \(r.message ?? "")"
    }
    return took.first { r, _ in showing.contains(r.scenario) }.map { r, site in
      "refuted by a run: \(r.name) took the path it is about (\(site) false) and the model showed nothing wrong"
    }
  }

  /// When every case of the battery itself failed and none showed the finding, says so with the
  /// first failure, which may be what kept the runs from it (a crash at every launch).
  private static func everyCaseFailed(_ ordered: [CaseResult]) -> String? {
    let own = ordered.filter { $0.choices.isEmpty }
    guard let first = own.first, own.allSatisfy({ $0.status == .failed }) else { return nil }
    return "every case of the battery failed, and none showed it (first: \(first.name) failed: \(first.message ?? ""))"
  }

  /// What a case is judged against: the finding, the mirror's `choose` sites that guard its
  /// effect, the scenarios that exercise it, the mirror's window call and the BGTask registration
  /// at its place, its delegate method (a completion never called confirms only its own method's
  /// finding), and every case run.
  private struct EvidenceContext {
    let diagnostic: ScanDiagnostic
    let sites: [String], showing: [String]
    /// The site of the mirror's window call at the finding's place (a read of the app delegate's
    /// window, a window made from a frame).
    var windowCall: String? = nil
    /// The identifier of the BGTask registration at the finding's place.
    var registration: String? = nil
    let method: DelegateMethod?
    let ordered: [CaseResult]
  }

  /// Whether case `r` shows `evidence` of the context's finding.
  private func shows(_ evidence: Confirmation.Evidence, _ r: CaseResult, _ c: EvidenceContext) -> Bool {
    // Only the finding's own sites false: another task kept open could be what recorded it. A
    // finding with no site of its own (a task the mirror could not place) is shown only by the
    // battery's own cases: a variant keeps another task open.
    let ownBranch = c.sites.isEmpty ? r.choices.isEmpty : c.sites.contains { tookFalse(r, $0) } && forcesOnly(c.sites, r)
    switch evidence {
    case .runtimeDiagnostic: return r.diagnostics.contains { $0.code == c.diagnostic.code && (c.diagnostic.handler == nil || $0.handler == c.diagnostic.handler) }
    case let .runtimeDiagnosticOf(code): return r.diagnostics.contains { $0.code == code } && ownBranch
    case let .noteOf(name): return !c.sites.isEmpty && r.notesRecorded.contains(name) && ownBranch
    case let .anyOf(all): return all.contains { (r.choices.isEmpty || $0.comesOfAChoice) && shows($0, r, c) }
    case .delegateWindowReadNil: return c.windowCall.map(r.nilDelegateWindowReads.contains) ?? false
    case .frameWindowNotShown: return c.windowCall.map(r.unshownFrameWindows.contains) ?? false
    case .registrationRefused: return c.registration.map(r.refusedRegistrations.contains) ?? false
    case let .failureMessage(text): return r.status == .failed && (r.message ?? "").contains(text)
    case let .failedCase(name): return r.status == .failed && r.name.hasPrefix(name + " [")
    case let .completionNotCalled(handlers):
      let own = c.method.flatMap { Callback(signature: $0.selector) }.map { [$0.signature] } ?? handlers
      return r.returnedWithoutCompletion.contains { handlers.contains($0) && own.contains($0) }
    case .failedWithConditionOff:
      // Only the site's own outcome may differ from a case that passed: another condition
      // forced false beside it could be what failed.
      return r.status == .failed && c.showing.contains(r.scenario) && c.sites.contains { site in
        tookFalse(r, site) && c.ordered.contains {
          $0.status == .passed && $0.choices == r.choices.removing(site) && $0.file == r.file && $0.ios == r.ios && $0.sdk == r.sdk
        }
      }
    }
  }

  /// What the runs (`context.ordered`) say of `context.diagnostic`, with the command that runs
  /// the case that shows it again.
  private func confirmation(_ context: EvidenceContext, command: [String]) -> Confirmation {
    let (diagnostic, ordered, sites, showing) = (context.diagnostic, context.ordered, context.sites, context.showing)
    guard let evidence = Confirmation.evidence(for: diagnostic.code) else {
      return .unconfirmed(why: Confirmation.whyNoRun(diagnostic.code))
    }
    let shows = ordered.first { r in
      // Only the evidence of a choice counts a variant: the battery's own cases show the rest.
      (r.choices.isEmpty || evidence.comesOfAChoice) && self.shows(evidence, r, context)
    }
    guard let r = shows else {
      if !showing.isEmpty, !ordered.contains(where: { showing.contains($0.scenario) }) {
        return .unconfirmed(why: "no case that shows it ran in this check (\(showing.joined(separator: ", ")))")
      }
      return .unconfirmed(why: refutation(sites: sites, showing: showing, ordered) ?? Self.everyCaseFailed(ordered)
        ?? "no case of the battery on this matrix showed it")
    }
    let caseScenario = r.scenario
    // A variant's own choices are not on the line: `--check --case` runs every variant of the
    // case again (forcing one of them would take it out of the comparison that confirms it).
    let words = command + ["--check", "--case", caseScenario, "--ios", String(r.ios)] + (r.sdk.map { ["--sdk", String($0)] } ?? [])
      + choices.commandLineWords
    return .confirmed(scenario: r.name, ios: r.ios, sdk: r.sdk, reproduce: ShellCommand.line(words))
  }
}
