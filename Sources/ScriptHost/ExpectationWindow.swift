import Lifecycle

/// The verbs the expectation window covers (`LifecycleState.expectationWindowCalls`): the first and the
/// latest, with the lines that called them, for a failed call expectation to name. A verb's
/// text is written only when a description needs it: most windows are never described.
struct ExpectationWindow {
  private var first: (input: Input, at: String?)?
  private var last: (input: Input, at: String?)?

  /// A verb about to be performed; `opensWindow`: an expectation was checked since the verb
  /// before (the state's `expectationWindowChecked`), so this verb starts a new window.
  mutating func add(_ input: Input, at: String?, opensWindow: Bool) {
    let verb = (input: input, at: at)
    if first == nil || opensWindow { first = verb }
    last = verb
  }

  /// `home() at line 9 through advance(5) at line 11`: lines of the expectation's own file
  /// (`expectationAt`, `file:line`) as `line N`, others as `file:line`; `no verb` before the first.
  func description(from expectationAt: String?) -> String {
    guard let first, let last else { return "no verb" }
    let file = expectationAt.map { Self.split($0).file }
    func place(_ verb: (input: Input, at: String?)) -> String {
      let call = VerbCallText.call(verb.input)
      guard let at = verb.at else { return call }
      let (verbFile, line) = Self.split(at)
      return call + (verbFile == file ? " at line \(line)" : " at \(at)")
    }
    let opening = place(first), closing = place(last)
    return opening == closing ? opening : "\(opening) through \(closing)"
  }

  /// `s.lua:12` → (`s.lua`, `12`).
  private static func split(_ at: String) -> (file: Substring, line: Substring) {
    guard let colon = at.lastIndex(of: ":") else { return (at[...], "") }
    return (at[..<colon], at[at.index(after: colon)...])
  }
}
