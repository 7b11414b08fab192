import Lifecycle

/// What `lifesim scan --emit-app` lowered from the Swift into the Lua app, and what it left as
/// comments: the emitted `app.lua` opens with it, and the scan's report gives its share.
package struct MirrorSummary: Equatable, Sendable {
  /// One effect the writer met.
  package enum Effect: Equatable, Sendable {
    case registration
    case delegateAssignment
    case backgroundTask
    /// Inside a notification observer's block (what, and where): a comment, not run at launch.
    case observed(String)
    /// Reached from no handler the scan can name: a comment at the end of the app.
    case unplaced(String)
  }

  package private(set) var registrations = 0
  package private(set) var delegateAssignments = 0
  package private(set) var backgroundTasks = 0
  /// The effects left as comments, each with its Swift place (text safe in a Lua comment).
  package private(set) var commented: [String] = []
  /// Delegate methods the Swift implements (each handler once).
  package private(set) var methods = 0
  /// Those with lifecycle effects the scan reads (a registration, a task, a completion call …
  /// in them or in what they reach), and of those, the ones whose effects were all lowered.
  package private(set) var methodsWithEffects = 0
  package private(set) var methodsLowered = 0
  /// The methods the model does not deliver (text safe in a Lua comment).
  package private(set) var notModelled: [String] = []
  /// Each `choose(site)` the app makes and the Swift place of the effect it guards, in the order written.
  package private(set) var choices: [(site: String, guards: SourcePlace)] = []
  /// Each background task the mirror could not place (no run begins it): where it begins, and
  /// each place a finding about it stands (its begin, the paths that leave it open).
  package private(set) var unplacedTasks: [(begun: SourcePlace, guards: SourcePlace)] = []
  /// Each window call the mirror makes.
  package private(set) var windowCalls: [WindowCall] = []

  /// A window call of the mirror: its site, its Swift place, and whether it makes a window from
  /// a frame (else it reads the app delegate's window). `ScanCheck` finds a finding's call by place.
  package struct WindowCall: Equatable, Sendable {
    package var site: String
    package var place: SourcePlace
    package var makesWindow: Bool
  }

  package init() {}

  package static func == (a: MirrorSummary, b: MirrorSummary) -> Bool {
    a.registrations == b.registrations && a.delegateAssignments == b.delegateAssignments && a.backgroundTasks == b.backgroundTasks
      && a.commented == b.commented && a.methods == b.methods && a.methodsWithEffects == b.methodsWithEffects
      && a.methodsLowered == b.methodsLowered && a.notModelled == b.notModelled
      && a.choices.elementsEqual(b.choices) { $0.site == $1.site && $0.guards == $1.guards }
      && a.unplacedTasks.elementsEqual(b.unplacedTasks) { $0.begun == $1.begun && $0.guards == $1.guards }
      && a.windowCalls == b.windowCalls
  }

  mutating func noteChoice(site: String, guarding place: SourcePlace) { choices.append((site, place)) }

  mutating func noteUnplacedTask(begun: SourcePlace, guarding place: SourcePlace) { unplacedTasks.append((begun, place)) }

  mutating func noteWindowCall(site: String, at place: SourcePlace, makesWindow: Bool) {
    windowCalls.append(WindowCall(site: site, place: place, makesWindow: makesWindow))
  }

  /// The distinct sites the app asks (`choose(site)`), in the order first written.
  package var choiceSites: [String] { choiceKeys.filter { ForcedChoices.siteOfLaunchKey($0) == nil } }

  /// The distinct keys `--check` may force: each site, and a site in one launch (`SITE@2`).
  package var choiceKeys: [String] {
    var seen: Set<String> = []
    return choices.map(\.site).filter { seen.insert($0).inserted }
  }

  mutating func note(_ effect: Effect) {
    switch effect {
    case .registration: registrations += 1
    case .delegateAssignment: delegateAssignments += 1
    case .backgroundTask: backgroundTasks += 1
    case let .observed(what): commented.append(what + " (inside a notification observer)")
    case let .unplaced(what): commented.append(what + " (no handler the scan can name reaches it)")
    }
  }

  /// Counts each method by its handler's body as written (`bodies`, nil for a method the model
  /// does not deliver): one with lifecycle effects is lowered when no line says its work was
  /// left as a comment. Each such line is listed with its method (an observer's block already
  /// is, by `note`).
  mutating func countMethods(_ bodies: [(name: String, body: [String]?)]) {
    for (name, body) in bodies {
      methods += 1
      guard let body else { notModelled.append(name); continue }
      guard !body.isEmpty else { continue }
      methodsWithEffects += 1
      let notLowered = body.filter { $0.hasPrefix(LuaAppWriter.notLoweredPrefix) }
      if notLowered.isEmpty { methodsLowered += 1 }
      for line in notLowered where !line.hasPrefix(LuaAppWriter.notLoweredPrefix + "inside ") {
        commented.append(name + ": " + line.dropFirst(LuaAppWriter.notLoweredPrefix.count))
      }
    }
  }

  /// "the effects of 3 of 4 delegate methods with lifecycle effects (75 %)".
  package var share: String {
    guard methods > 0 else { return "no lifecycle effect: the scan found no delegate method in Swift" }
    guard methodsWithEffects > 0 else {
      return "no lifecycle effect: none of the \(methods) delegate method\(methods == 1 ? "" : "s") has one the scan reads"
    }
    return "the effects of \(methodsLowered) of \(methodsWithEffects) delegate method\(methodsWithEffects == 1 ? "" : "s") with lifecycle effects "
      + "(\(methodsLowered * 100 / methodsWithEffects) %)"
  }

  /// The app's opening comment: what was lowered, what was left as comments.
  var headerLines: [String] {
    var lowered = ["a stub per delegate method, which logs its call"]
    if registrations > 0 { lowered.append(Self.count(registrations, "BGTask registration")) }
    if delegateAssignments > 0 { lowered.append("the notification delegate assignment") }
    if backgroundTasks > 0 {
      lowered.append(Self.count(backgroundTasks, "background task") + (backgroundTasks == 1 ? " (ended 1 s after it begins)" : " (each ended 1 s after it begins)"))
    }
    let frameWindows = windowCalls.filter(\.makesWindow).count
    if windowCalls.count > frameWindows {
      lowered.append(Self.count(windowCalls.count - frameWindows, "read") + " of the app delegate's window (UIKit sets it only without scenes)")
    }
    if frameWindows > 0 {
      lowered.append(Self.count(frameWindows, "window") + " made from a frame (shown only without scenes)")
    }
    if !choices.isEmpty {
      let n = choiceSites.count
      lowered.append(Self.count(n, "condition") + " the scan cannot decide, as `choose(site)`" + (n == 1 ? "" : " each")
        + ": the run's seed decides, or --choose SITE=true|false")
    }
    var lines = ["--", "-- Lowered from the Swift:"] + lowered.map { "--   " + $0 }
    lines.append("-- Methods: \(share)" + loggedOnly + ".")
    let left = commented + notModelled.map { $0 + " (not modelled by lifesim)" }
    if !left.isEmpty {
      lines.append("-- Left as comments:")
      lines += left.map { "--   " + $0 }
    }
    lines.append("-- Not read: what the handlers do beyond these effects (the scan reads no other work).")
    return lines
  }

  /// "; 10 more only log their call", after a share of methods with effects.
  private var loggedOnly: String {
    let n = methods - methodsWithEffects - notModelled.count
    guard methodsWithEffects > 0, n > 0 else { return "" }
    return n == 1 ? "; 1 more only logs its call" : "; \(n) more only log their call"
  }

  private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
