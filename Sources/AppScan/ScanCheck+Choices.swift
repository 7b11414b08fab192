import Lifecycle

/// Which `choose` outcomes `--check` runs. Every condition of the mirror holds in the battery's
/// own run (each site forced true: the app does the work its Swift does when it can, and a
/// background task's work ends in time), and each condition that guards the effect of one of
/// the scan's findings a run can show is also run the other way: every combination
/// of up to `allCombinationsMax` such sites, and beyond that every pair of them (sizes 0, 1, 2),
/// which still gives each two sites all four outcomes together. A site the user forces
/// (`--choose`) keeps the user's value in every case.
extension ScanCheck {
  /// The most guarding sites run in every combination.
  package static let allCombinationsMax = 6
  /// The most variants one battery runs, each on the whole matrix.
  package static let variantsMax = 64

  /// The choices every case forces, and one set of sites forced false per variant (the first,
  /// none: the battery's own run).
  package static func choicePlan(_ mirror: MirrorSummary, findings: [ScanDiagnostic], forced: ForcedChoices)
    -> (base: ForcedChoices, variants: [ForcedChoices], notRun: [String]) {
    var base = ForcedChoices()
    for site in mirror.choiceSites { try? base.force(site, true) }
    base = base.merging(forced)
    let guarded = findings.filter { Confirmation.shownWithConditionOff.contains($0.code) }.map(\.place)
    let guards = { (key: String) in mirror.choices.filter { $0.site == key && guarded.contains($0.guards) }.map(\.guards) }
    // A site the user forces is forced in every launch. A site varied in a later launch alone
    // (`SITE@2`, a BGTask registration) is not varied in every launch where that is all it
    // guards: a run that never registers never submits, and has nothing to show.
    let varied = mirror.choiceKeys.filter { key in
      let site = ForcedChoices.siteOfLaunchKey(key) ?? key
      guard forced.value(of: site) == nil, forced.value(of: key) == nil, !guards(key).isEmpty else { return false }
      let inLaunch2 = guards(ForcedChoices.site(key, launch: 2))
      return key != site || !guards(key).allSatisfy(inLaunch2.contains)
    }
    let subsets = varied.count <= allCombinationsMax ? allSubsets(varied.count) : subsets(ofSizeAtMost: 2, varied.count)
    var notRun: [String] = []
    if mirror.choiceSites.count > ForcedChoices.maxSites {
      notRun.append("\(mirror.choiceSites.count - ForcedChoices.maxSites) of the mirror's \(mirror.choiceSites.count) conditions: not forced, "
                    + "a run forces at most \(ForcedChoices.maxSites); the seed draws them")
    }
    let kept = Array(subsets.prefix(variantsMax))
    if subsets.count > kept.count {
      notRun.append("\(subsets.count - kept.count) of the \(subsets.count) combinations of \(varied.count) conditions: not run, at most \(variantsMax) are")
    }
    let variants = kept.map { subset -> ForcedChoices in
      var choices = ForcedChoices()
      for index in subset { try? choices.force(varied[index], false) }
      return choices
    }
    return (base, variants, notRun)
  }

  /// Every subset of `0..<n`, by size, then in order of their members.
  private static func allSubsets(_ n: Int) -> [[Int]] {
    (0..<(1 << n)).map { mask in (0..<n).filter { mask & (1 << $0) != 0 } }
      .sorted { $0.count != $1.count ? $0.count < $1.count : $0.lexicographicallyPrecedes($1) }
  }

  /// Every subset of `0..<n` of at most `size` members (0, 1 or 2), by size.
  private static func subsets(ofSizeAtMost size: Int, _ n: Int) -> [[Int]] {
    var all: [[Int]] = [[]]
    if size >= 1 { all += (0..<n).map { [$0] } }
    if size >= 2 { for a in 0..<n { for b in (a + 1)..<max(a + 1, n) { all.append([a, b]) } } }
    return all
  }

  /// The battery's scenarios (by name, without the profile) that exercise the effect a finding of
  /// `shownWithConditionOff` is about: leaving the background for a task; the identifier's own
  /// background case for a BGTask registration or launch handler; the taps for the notification
  /// delegate. Only these confirm it by failing, or refute it by passing.
  package static func showingScenarios(of diagnostic: ScanDiagnostic, in report: ScanReport) -> [String] {
    let backgroundCases = { (id: String) in
      ["refresh", "processing"].flatMap { ["background \($0) \(id)", "background \($0) \(id) after jetsam"] }
    }
    // The background cases of the identifiers whose launch handler (or a function it hands the
    // task to) is one `matching` picks.
    let launchHandlersCases = { (matching: (TaskHandlerFact) -> Bool) in
      report.registrations.filter { report.launchHandlerFacts($0)?.contains(where: matching) ?? false }.compactMap(\.identifier).flatMap(backgroundCases)
    }
    switch diagnostic.code {
    case Diagnostic.Code.taskOpenAfterExpiration.rawValue:
      return ["home and return"]
    case "task_not_ended":
      // The lock case expects the app suspended 15 s after it locks: a task left open holds it
      // in the background until the task expires.
      return ["home and return", "lock"]
    case "registered_conditionally":
      if report.notificationDelegate?.place == diagnostic.place { return ["notification tap cold", "notification tap warm"] }
      return report.registrations.filter { $0.place == diagnostic.place }.compactMap(\.identifier).flatMap(backgroundCases)
    case "bgtask_not_completed":
      return launchHandlersCases { $0.place.file == diagnostic.place.file && $0.openExits.contains(diagnostic.place.line) }
    case "bgtask_expiration_missing":
      return launchHandlersCases { handler in
        handler.place == diagnostic.place
          || (handler.place.file == diagnostic.place.file && handler.expiration == .doesNotComplete(line: diagnostic.place.line))
      }
    default:
      return []
    }
  }
}
