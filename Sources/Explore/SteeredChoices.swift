import Lifecycle
import ScriptHost

/// The `choose` outcomes one explore run steers. Every run of an exploration shares its seed, so
/// left to the seed each site would take the same branch in every run; instead the first time a
/// run asks a site in a launch (`SITE@N`), the value is drawn from the run's own stream. A run
/// that replays a sequence (shrinking) is given the values and draws none. At most
/// `ForcedChoices.maxSites` keys, so that a finding's scenario can force each one it used; past
/// that the seed decides, as it does in any run.
final class SteeredChoices: ChoiceSource {
  private var random: ExploreRandom?
  private var values: [String: Bool]
  /// The keys the run asked, with the value each got: what a finding's scenario forces.
  private(set) var asked: [String: Bool] = [:]

  /// Steers with `known` outcomes (a kept run's, whose prefix this run replays) and fresh draws
  /// from `random` for the rest.
  init(drawingFrom random: ExploreRandom, known: [String: Bool] = [:]) {
    self.random = random
    values = known
  }

  /// Replays `values` (`SITE@N` keys) and draws none: other sites are the seed's.
  init(replaying values: [String: Bool]) {
    random = nil
    self.values = values
  }

  func value(of site: String, launch: Int) -> Bool? {
    let key = ForcedChoices.site(site, launch: launch)
    if let known = values[key] {
      asked[key] = known
      return known
    }
    // A site named like another's key in a launch (`X@1`) takes that key's value, as a run
    // forcing it does (`ForcedChoices.value(of:launch:)`).
    if let known = values[site] { return known }
    // A key a scenario could not force (a site near the length limit) is left to the seed.
    guard var random, values.count < ForcedChoices.maxSites, ForcedChoices.problem(site: key) == nil else { return nil }
    let drawn = random.next() & 1 == 1
    self.random = random
    values[key] = drawn
    asked[key] = drawn
    return drawn
  }
}

extension ForcedChoices {
  /// The outcomes a run steered (`SITE@N` keys), to force in its finding's scenario.
  init(steered: [String: Bool]) {
    self.init()
    for (key, value) in steered {
      do { try force(key, value) } catch { preconditionFailure("a steered choice a scenario cannot force: \(error.description)") }
    }
  }

  /// `, choose = { ["AppDelegate.swift:57@1"] = true }`: the field of a `scenario { … }` that
  /// forces these, sites in byte order; empty when there are none.
  var scenarioField: String {
    guard !isEmpty else { return "" }
    let entries = values.map { "[\(LuaStringLiteral.quote($0.site))] = \($0.value)" }
    return ", choose = { \(entries.joined(separator: ", ")) }"
  }
}
