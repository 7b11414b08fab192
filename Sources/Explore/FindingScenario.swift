import EventStore
import Lifecycle
import ScriptHost

/// Writes a finding as a normal scenario: a comment with the signature and the seed, the
/// `scenario { … }` that reproduces the run (with the `choose` outcomes it steered), one verb
/// per line, and for an invariant, the invariant's own function checked with `expect` after the
/// last verb.
public enum FindingScenario {
  /// The scenario text. `appReference`: the app's path as the scenario should name it
  /// (relative to the scenario's folder); `specSource`: the spec, for invariant findings.
  public static func text(_ finding: ExploreFinding, number: Int, appReference: String, profile: Profile,
                          seed: Int64, specSource: String?, invariantLines: ClosedRange<Int>?) -> String {
    var lines = [
      "-- Finding \(number): \(LuaStringLiteral.comment(finding.signature.text))",
      "-- Found by lifesim explore --seed \(seed) (run \(finding.run)), shrunk to \(quantity(finding.inputs.count, "verb")).",
    ]
    if !finding.detail.isEmpty { lines.append("-- " + LuaStringLiteral.comment(finding.detail)) }
    let device = profile.device == .iphone ? "" : ", device = \(LuaStringLiteral.quote(profile.device.rawValue))"
    lines.append("scenario { app = \(LuaStringLiteral.quote(appReference)), ios = \(profile.ios), scenes = \(profile.scenes)\(device), seed = \(seed)\(finding.choices.scenarioField) }")
    var check: String?
    if finding.signature.reason == "invariant", let specSource, let range = invariantLines,
       let function = functionText(specSource, range) {
      lines.append("local invariant = \(function)")
      check = "expect(invariant(), \(LuaStringLiteral.quote("invariant \"\(finding.signature.place)\" holds")))"
    }
    lines += finding.inputs.map(VerbCallText.call)
    if let check { lines.append(check) }
    return lines.joined(separator: "\n") + "\n"
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
