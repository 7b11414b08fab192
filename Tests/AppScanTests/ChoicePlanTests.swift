@testable import AppScan
import Lifecycle
import Testing

/// Which `choose` outcomes `--check` runs (`ScanCheck.choicePlan`): every site true in the
/// battery's own run, the sites that guard a finding also false, in every combination of up to
/// 6 of them and pairwise beyond, at most 64 variants, a site the user forces never varied.
@Suite struct ChoicePlanTests {
  /// A mirror with `n` sites, each guarding the registration at line 100 + its number, and the
  /// `registered_conditionally` findings at the first `guarding` of them.
  private func mirror(sites n: Int, guarding: Int) -> (MirrorSummary, [ScanDiagnostic]) {
    var summary = MirrorSummary()
    for i in 0..<n { summary.noteChoice(site: "A.swift:\(i)", guarding: SourcePlace(file: "A.swift", line: 100 + i)) }
    let findings = (0..<guarding).map {
      ScanDiagnostic(code: "registered_conditionally", handler: nil, place: SourcePlace(file: "A.swift", line: 100 + $0), message: "")
    }
    return (summary, findings)
  }

  @Test func everySiteHoldsInTheBatterysOwnRunAndOnlyGuardingSitesVary() {
    let (summary, findings) = mirror(sites: 3, guarding: 2)
    let plan = ScanCheck.choicePlan(summary, findings: findings, forced: ForcedChoices())
    #expect(plan.base.text == "A.swift:0=true, A.swift:1=true, A.swift:2=true")
    #expect(plan.variants.map(\.text) == ["", "A.swift:0=false", "A.swift:1=false", "A.swift:0=false, A.swift:1=false"])
    #expect(plan.notRun.isEmpty)
  }

  @Test func aSiteTheUserForcesKeepsItsValueAndIsNotVaried() throws {
    let (summary, findings) = mirror(sites: 2, guarding: 2)
    var forced = ForcedChoices()
    try forced.force("A.swift:0", false)
    let plan = ScanCheck.choicePlan(summary, findings: findings, forced: forced)
    #expect(plan.base.text == "A.swift:0=false, A.swift:1=true")
    #expect(plan.variants.map(\.text) == ["", "A.swift:1=false"])
  }

  /// Up to 6 guarding sites: all 64 combinations; 7: the empty set, 7 singletons, 21 pairs.
  @Test(arguments: [(6, 64), (7, 29)]) func combinationsThenPairs(sites: Int, variants: Int) {
    let (summary, findings) = mirror(sites: sites, guarding: sites)
    let plan = ScanCheck.choicePlan(summary, findings: findings, forced: ForcedChoices())
    #expect(plan.variants.count == variants)
    #expect(Set(plan.variants.map(\.text)).count == variants)
    #expect(plan.variants.first?.isEmpty == true)
  }

  /// 12 sites make 79 subsets of at most 2: 64 run, and the report says 15 did not.
  @Test func atMost64VariantsRunAndTheRestAreListed() {
    let (summary, findings) = mirror(sites: 12, guarding: 12)
    let plan = ScanCheck.choicePlan(summary, findings: findings, forced: ForcedChoices())
    #expect(plan.variants.count == 64)
    #expect(plan.notRun == ["15 of the 79 combinations of 12 conditions: not run, at most 64 are"])
  }
}
