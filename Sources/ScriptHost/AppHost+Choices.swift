import EventStore
import Lifecycle
import LuaRuntime

// `choose(site)`: a condition of the app's code that the script does not decide (the scan's
// mirror writes one where the Swift's `if`, `guard` or optional chain cannot be read). The run
// decides it: a site the run forces (`--choose SITE=true|false`, or `SITE@N=…` for the run's Nth
// launch of the app alone) returns its value; any other
// draws from the run's seed, the process and how often the site was asked before, so a replay
// draws the same and one site's draws do not move another's. The log records each outcome.
extension AppHost {
  /// `choose(site)`: true or false, recorded as the app call `choose`.
  static func chooseFunction(_ link: HostLink) -> HostFunction.Body {
    return { vm in
      guard let self = link.host else { return 0 }
      guard vm.type(1) == .string, let site = vm.string(1) else {
        throw LuaRaise(at: vm, "choose: expected the condition's site as a string: choose(\"AppDelegate.swift:57\")")
      }
      if let problem = ForcedChoices.problem(site: site) { throw LuaRaise(at: vm, "choose: \(problem)") }
      guard self.choiceDraws.count < Self.choiceSitesMax || self.choiceDraws[site] != nil else {
        throw LuaRaise(at: vm, "choose: more than \(Self.choiceSitesMax) sites in one process")
      }
      let launch = self.services?.state.generation ?? 1
      let forced = self.profile.forcedChoices.value(of: site, launch: launch)
      let value = forced ?? self.drawChoice(site)
      try self.call(.choose(site: site, value: value, forced: forced != nil), from: vm)
      vm.push(value)
      return 1
    }
  }

  /// The most distinct sites one process may ask (each keeps a count of its draws).
  static let choiceSitesMax = 4096

  /// The next draw of `site` in this process: one bit of SplitMix64 over the process's seed,
  /// the site's FNV-1a digest and the number of earlier draws of it.
  private func drawChoice(_ site: String) -> Bool {
    let drawn = choiceDraws[site, default: 0]
    choiceDraws[site] = drawn + 1
    var z = (UInt64(bitPattern: processSeed) ^ FNV1a.hash(site.utf8)) &+ UInt64(drawn) &* 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return (z ^ (z >> 31)) & 1 == 1
  }
}
