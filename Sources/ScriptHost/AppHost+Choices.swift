import EventStore
import Lifecycle
import LuaRuntime

// `choose(site)`: a condition of the app's code that the script does not decide (the scan's
// mirror writes one where the Swift's `if`, `guard` or optional chain cannot be read). The run
// decides it: a site the run forces (`--choose SITE=true|false`, or `SITE@N=…` for the run's Nth
// launch of the app alone) returns its value; so does a site an explorer steers
// (`ChoiceSource`); any other draws from the run's seed, the process and how often the site was
// asked before, so a replay draws the same and one site's draws do not move another's. The log
// records each outcome.
extension AppHost {
  /// `choose(site)`: true or false, recorded as the app call `choose`.
  static func chooseFunction(_ link: HostLink) -> HostFunction.Body {
    return { vm in
      guard let self = link.host else { return 0 }
      guard vm.type(1) == .string, let site = vm.string(1) else {
        throw LuaRaise(at: vm, "choose: expected the condition's site as a string: choose(\"AppDelegate.swift:57\")")
      }
      if let problem = ForcedChoices.problem(site: site) { throw LuaRaise(at: vm, "choose: \(problem)") }
      guard self.choices.draws.count < Self.choiceSitesMax || self.choices.draws[site] != nil else {
        throw LuaRaise(at: vm, "choose: more than \(Self.choiceSitesMax) sites in one process")
      }
      let launch = self.services?.state.generation ?? 1
      let forced = self.profile.forcedChoices.value(of: site, launch: launch)
        ?? self.choices.source?.value(of: site, launch: launch)
      let value = forced ?? self.choices.draw(site)
      try self.call(.choose(site: site, value: value, forced: forced != nil), from: vm)
      vm.push(value)
      return 1
    }
  }

  /// The most distinct sites one process may ask (each keeps a count of its draws).
  static let choiceSitesMax = 4096

  /// What decides the `choose` sites the run does not force, before the seed does: an explorer
  /// steering them (nil: the seed draws them all). It outlives the host's processes.
  package var choiceSource: ChoiceSource? {
    get { choices.source }
    set { choices.source = newValue }
  }
}

/// Decides `choose` sites a run leaves open, as one more layer of what the run is: a value
/// here acts as if forced (`SITE@N` for the launch), so whoever steers must write it down for
/// a replay to see it. Nil leaves the site to the seed.
package protocol ChoiceSource: AnyObject {
  func value(of site: String, launch: Int) -> Bool?
}

/// A process's `choose` state: its seed (the run's, mixed with its generation), how often it
/// drew each site, and the run's `ChoiceSource`.
struct ProcessChoices {
  private(set) var processSeed: Int64 = 0
  private(set) var draws: [String: Int] = [:]
  var source: ChoiceSource?

  /// A new process: its seed, and no site drawn yet.
  mutating func restart(seed: Int64) {
    processSeed = seed
    draws = [:]
  }

  /// The next draw of `site`: one bit of SplitMix64 over the process's seed, the site's FNV-1a
  /// digest and the number of earlier draws of it.
  mutating func draw(_ site: String) -> Bool {
    let drawn = draws[site, default: 0]
    draws[site] = drawn + 1
    var z = (UInt64(bitPattern: processSeed) ^ FNV1a.hash(site.utf8)) &+ UInt64(drawn) &* 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return (z ^ (z >> 31)) & 1 == 1
  }
}
