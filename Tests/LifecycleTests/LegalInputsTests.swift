import Testing
@testable import Lifecycle

/// `InputRules.legalInputs` lists exactly the inputs `perform` accepts, drawn from every
/// verb's argument domain.
@Suite struct LegalInputsTests {
  static let controllers = ["NoteList", "Detail", "Sheet"]
  static let urls = ["notes://1"]
  static let durationsUs: [Int64] = [1_000_000]

  /// What is legal now in `h` (whose events the test does not claim).
  private static func legal(_ h: Harness) -> [Input] {
    h.skipRemainingEvents()
    return h.sim.rules.legalInputs(state: h.sim.state, clockUs: h.sim.clock, controllers: controllers,
                            urls: urls, durationsUs: durationsUs)
  }

  @Test func beforeLaunchOnlyTheSystemAndTheIconAreLegal() {
    #expect(Self.legal(Harness()) == [
      .launch(url: nil), .launch(url: "notes://1"), .prewarm, .lock, .appSwitcher, .memoryWarning, .memoryPressure,
      .criticalMemoryPressure, .backgroundLaunch(.fetch), .backgroundLaunch(.push), .openURL("notes://1"), .rotate(.landscape),
      .advance(us: 1_000_000), .timeChange, .reboot,
    ])
  }

  @Test func anActiveAppOnANavigationControllerCanPushAndPresentEveryDeclaredController() throws {
    let h = Harness()
    try h.perform(.launch(url: nil))
    let legal = Self.legal(h)
    #expect(legal.contains(.push("Detail")) && legal.contains(.push("NoteList")))
    #expect(!legal.contains(.pop) && !legal.contains(.dismiss) && !legal.contains(.selectTab(1)))
    #expect(legal.filter { if case .present = $0 { return true } else { return false } }.count == 3 * 5 * 2)
    #expect(legal.contains(.rotate(.landscape)) && !legal.contains(.rotate(.portrait)))
    #expect(Interruption.allCases.allSatisfy { legal.contains(.interrupt($0)) })
  }

  /// From several states, every candidate of every verb: `perform` refuses it exactly when it is not listed.
  @Test func theListIsExactlyWhatPerformAccepts() throws {
    let prefixes: [[Input]] = [
      [], [.launch(url: nil)], [.launch(url: nil), .push("Detail")],
      [.launch(url: nil), .present("Sheet", style: .pageSheet, navigation: true)],
      [.launch(url: nil), .interrupt(.call)], [.launch(url: nil), .appSwitcher], [.launch(url: nil), .home], [.lock],
    ]
    let domain = ArgumentDomain(controllers: Self.controllers + ["Undeclared"], tabs: 3, urls: Self.urls,
                                durationsUs: Self.durationsUs)
    let candidates = VerbSpec.all.flatMap { $0.candidates(domain) }
    for prefix in prefixes {
      let probe = Harness()
      for input in prefix { try probe.sim.perform(input) }
      let legal = Self.legal(probe)
      for candidate in candidates {
        let h = Harness()
        for input in prefix { try h.sim.perform(input) }
        let accepted = (try? h.sim.perform(candidate)) != nil
        h.skipRemainingEvents()
        #expect(accepted == legal.contains(candidate), "after \(prefix): \(candidate)")
      }
    }
  }
}
