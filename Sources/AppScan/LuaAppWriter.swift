import Lifecycle
import ScriptHost

/// `lifesim scan --emit-app`: the Lua app that mirrors the scanned Swift. Each delegate method
/// the model knows becomes a stub that logs its call and cites the Swift it mirrors; the BGTask
/// registrations, the notification delegate and the background tasks go where the Swift reaches
/// them. Every text taken from the Swift goes through `LuaStringLiteral`: app source is hostile.
package struct LuaAppWriter {
  let report: ScanReport
  /// The app's name in `app { name = … }`.
  let name: String
  /// The folder the scan was given: citations are relative to it.
  let root: String

  package init(report: ScanReport, name: String, root: String) {
    self.report = report
    self.name = name
    self.root = root.hasSuffix("/") ? root : root + "/"
  }

  /// What a stub places in its handler: lines of Lua, each citing its Swift source.
  private typealias Placements = [String: [String]]

  /// `app.lua`'s text.
  package var app: String { mirror.app }

  /// `app.lua`'s text, and what it lowered from the Swift and left as comments.
  package var mirror: (app: String, summary: MirrorSummary) {
    var placements = Placements()
    var unplaced: [String] = []
    var summary = MirrorSummary()
    placeRegistrations(&placements, &summary)
    placeDelegate(&placements, &summary)
    placeBackgroundTasks(&placements, unplaced: &unplaced, &summary)
    placeWindowCalls(&placements, unplaced: &unplaced, &summary)
    var stubLines: [String] = []
    var bodies: [String: [String]] = [:]
    for table in ["AppDelegate", "SceneDelegate", "NotificationDelegate"] {
      stubLines += stubs(table, placements: &placements, bodies: &bodies)
    }
    summary.countMethods(delegateMethodKeys.map { ($0.name, $0.key.map { bodies[$0] ?? [] }) })
    var lines = header(summary) + stubLines
    // A launch placement with no launch method in the Swift gets didFinishLaunching of its own.
    for (key, body) in placements.sorted(by: { $0.key < $1.key }) where !body.isEmpty {
      let (table, handler) = Self.split(key)
      lines += ["", "function \(table).\(handler)(...)", "  log(\(LuaStringLiteral.quote(key)))"] + body
        + (Self.returnsTrue(table, handler) ? ["  return true"] : []) + ["end"]
    }
    lines += ["", "controller \(LuaStringLiteral.quote(rootController)) {}"]
    if !unplaced.isEmpty { lines += [""] + unplaced }
    return (lines.joined(separator: "\n") + "\n", summary)
  }

  /// Each delegate method the Swift implements, once: its handler's key (`AppDelegate.openURL`),
  /// or nil for one the model does not deliver (`AppDelegate.application(_:didDecodeRestorableStateWith:)`'s kin).
  private var delegateMethodKeys: [(name: String, key: String?)] {
    var seen: Set<String> = []
    return report.methods.compactMap { method in
      guard let table = Self.table(for: method.role) else { return nil }
      let key = Callback(signature: method.selector).map { table + "." + $0.key }
      let name = key ?? LuaStringLiteral.comment(table + "." + method.selector)
      return seen.insert(name).inserted ? (name, key) : nil
    }
  }

  private var rootController: String { report.rootController ?? "Root" }

  private func header(_ summary: MirrorSummary) -> [String] {
    var declaration = "app { name = \(LuaStringLiteral.quote(name)), root = \(LuaStringLiteral.quote(rootController))"
    // The Info.plist's manifest decides the scenes, as on a device: scenarios do not pin them, so
    // `lifesim test --compare scenes` can ask the other way.
    if let manifest = Self.declaredManifest(report) { declaration += ", sceneManifest = \(LuaStringLiteral.quote(manifest.rawValue))" }
    // The project's deployment target, which gates the runtime's diagnostics as it gates the scan's.
    if let minimum = report.minimumIOS, (2...IOSRelease.latest.version).contains(minimum) {
      declaration += ", minimumIOS = \(minimum)"
    }
    if !report.permittedIdentifiers.isEmpty {
      declaration += ", bgTaskIdentifiers = {\n" + report.permittedIdentifiers.map { "  " + LuaStringLiteral.quote($0) + ",\n" }.joined() + "}"
    }
    var lines = [
      "-- Written by `lifesim scan --emit-app` from the Swift app (docs/scan.md). Each handler logs its call and",
      "-- cites the Swift it mirrors (paths from the folder scanned); fill in the behaviour that matters.",
    ] + summary.headerLines + [
      declaration + " }",
    ]
    if report.methods.contains(where: { !$0.ignoresCompletion && (Callback(signature: $0.selector).map(Self.completes.contains) ?? false) }) {
      lines += [
        "", "-- Calls the completion handler UIKit passes last, so that no stub leaves one waiting.",
        "local function complete(...)",
        "  local completion = select(select(\"#\", ...), ...)",
        "  if type(completion) == \"function\" then completion() end",
        "end",
      ]
    }
    if report.registrations.contains(where: { $0.identifier != nil && report.launchHandlerFacts($0) == nil }) {
      lines += ["", "-- A BGTask launch handler: completes its task at once.", "local function launchHandler(task) task:setTaskCompleted(true) end"]
    }
    return lines
  }

  /// Each registration where the Swift reaches it, an unknown place being launch (and saying so),
  /// with a request submitted for it: the scan does not follow where the Swift submits.
  /// An identifier registered in several places (`#if DEBUG … #else … #endif`) is registered
  /// once, where the first is: a second registration of it would crash the mirror.
  private func placeRegistrations(_ placements: inout Placements, _ summary: inout MirrorSummary) {
    let requests = MirrorRequests(report)
    var placed: [String: SourcePlace] = [:]
    for registration in report.registrations {
      guard let identifier = registration.identifier else { continue }
      let quoted = LuaStringLiteral.quote(identifier)
      let key = handlerKey(registration.reach) ?? "AppDelegate.didFinishLaunchingWithOptions"
      if let first = placed[identifier] {
        placements[key, default: []] += ["  -- register(forTaskWithIdentifier:) at \(cite(registration.place)) registers \(LuaStringLiteral.comment(identifier)) as \(cite(first)) does: mirrored once"]
        continue
      }
      placed[identifier] = registration.place
      summary.note(Self.lowered(registration.reach) ? .registration : .observed("register(forTaskWithIdentifier:) at " + cite(registration.place)))
      let note = registration.isSwiftUIModifier ? " (SwiftUI's .backgroundTask registers at launch)" : ""
      let submit = requests.kind(of: identifier).map { kind in
        let line = "BGTaskScheduler:submit { id = \(quoted), kind = \(LuaStringLiteral.quote(kind)) }"
        return ["  -- a \(kind) request, as the Swift submits one somewhere the scan does not follow (bg_task runs it)"]
          + (requests.choiceSite(of: identifier).map { site in
            ["  -- \(MirrorRequests.pendingText(kind)) pending at once: whose is a choice, and each battery case submits its own",
             "  if choose(\(LuaStringLiteral.quote(site))) then", "    " + line, "  end"]
          } ?? ["  " + line])
      } ?? ["  -- not submitted: " + LuaStringLiteral.comment(requests.withheld.first { $0.identifier == identifier }?.why ?? "")]
      // The stand-in submit goes with the registration it stands beside: a submit the mirror
      // invented must not crash a launch that skips the registration.
      let register = choosing(registerLines(quoted, registration, &summary) + submit, registration.condition,
                              guarding: registration.place, alsoInLaunch: 2, &summary)
      placements[key, default: []] += ["  -- register(forTaskWithIdentifier:) at " + cite(registration.place) + note]
        + deferring(register, registration.reach)
    }
  }

  private func placeDelegate(_ placements: inout Placements, _ summary: inout MirrorSummary) {
    guard let assignment = report.notificationDelegate, let key = handlerKey(assignment.reach) else { return }
    summary.note(Self.lowered(assignment.reach) ? .delegateAssignment : .observed("the notification delegate set at " + cite(assignment.place)))
    placements[key, default: []] += ["  -- the notification delegate is set at " + cite(assignment.place)]
      + deferring(choosing(["  UNUserNotificationCenter:setDelegate()"], assignment.condition, guarding: assignment.place, &summary),
                  assignment.reach)
  }

  /// `lines` under the Swift's `condition`, which the scan cannot decide: `if choose(site) then`,
  /// the run deciding it (its seed, or `--choose SITE=true|false`). The site is the condition's
  /// `file:line` from the folder scanned (its file's name alone when that path cannot be a site).
  /// `alsoInLaunch`: the site in that launch alone (`SITE@N`) guards the effect too, so `--check`
  /// varies it: a BGTask registration one launch makes and the background launch after it skips.
  private func choosing(_ lines: [String], _ condition: RuntimeCondition?, guarding place: SourcePlace,
                        alsoInLaunch launch: Int? = nil, _ summary: inout MirrorSummary) -> [String] {
    guard let condition else { return lines }
    let site = choiceSite(SourcePlace(file: place.file, line: condition.line))
    summary.noteChoice(site: site, guarding: place)
    if let launch { summary.noteChoice(site: ForcedChoices.site(site, launch: launch), guarding: place) }
    return ["  -- " + LuaStringLiteral.comment(condition.description) + ": the run decides it (--choose SITE=true|false)",
            "  if choose(\(LuaStringLiteral.quote(site))) then"] + lines.map { "  " + $0 } + ["  end"]
  }

  /// `lines` as the Swift runs them: code a launch method defers (`DispatchQueue.main.async`,
  /// `Task`) runs once the handler has returned, as `after(0, …)` does.
  private func deferring(_ lines: [String], _ reach: Reach) -> [String] {
    guard case let .deferred(_, by) = reach else { return lines }
    // An observer's block runs only when its notification is posted: not at every launch, and
    // not when the scan can say; it stays a comment rather than run unconditionally.
    if Self.conditionalDeferrals.contains(where: { by.hasSuffix($0) }) {
      return [Self.notLoweredPrefix + "inside " + LuaStringLiteral.comment(by) + ", which runs only when its notification is posted"]
        + lines.map { line in
          let code = String(line.drop { $0 == " " })
          return code.hasPrefix("--") ? "  " + code : "  -- " + LuaStringLiteral.comment(code)
        }
    }
    return ["  -- deferred by " + LuaStringLiteral.comment(by) + ": runs after the handler returns", "  after(0, function()"]
      + lines.map { "  " + $0 } + ["  end)"]
  }

  /// A `choose` site for `place`: its `file:line` from the folder scanned, else its file's name
  /// and line when that path cannot be a site (too long, a control character), else its line.
  func choiceSite(_ place: SourcePlace) -> String {
    let file = place.file.hasPrefix(root) ? String(place.file.dropFirst(root.count)) : place.file
    for site in ["\(file):\(place.line)", "\(file.split(separator: "/").last ?? ""):\(place.line)"] where ForcedChoices.problem(site: site) == nil {
      return site
    }
    return "condition:\(place.line)"
  }

  /// A comment citing `places` after `head`: on one line when it fits luacheck's 140 columns
  /// with room to spare, else one place a line.
  static func citing(_ head: String, _ places: [String], _ tail: String = "") -> [String] {
    let line = head + places.joined(separator: ", ") + tail
    if line.count <= 120 { return [line] }
    let indent = String(head.prefix { $0 == " " }) + "--   "
    return [String(head.dropLast(head.hasSuffix(" ") ? 1 : 0))] + places.map { indent + $0 } + (tail.isEmpty ? [] : [indent + tail])
  }

  /// How a placement says its work was left as a comment.
  static let notLoweredPrefix = "  -- not lowered: "

  /// The deferring calls whose closure runs only on an event the scan cannot place.
  static let conditionalDeferrals = ["addObserver"]

  /// Whether code reached this way is lowered (not left as a comment, inside an observer's block).
  private static func lowered(_ reach: Reach) -> Bool {
    guard case let .deferred(_, by) = reach else { return true }
    return !conditionalDeferrals.contains { by.hasSuffix($0) }
  }

  /// A background task begun where the Swift begins it; its expiration handler does what the
  /// Swift's does (ends it, ends it once it has returned, or nothing); and the work it covers,
  /// whose length the scan cannot read, is a choice: true ends the task a second later, false
  /// keeps it open past the allowance, as a long job or a path that leaves it open does.
  private func placeBackgroundTasks(_ placements: inout Placements, unplaced: inout [String], _ summary: inout MirrorSummary) {
    for task in report.backgroundTasks {
      let exits = task.fact.openExits.map { SourcePlace(file: task.fact.place.file, line: $0) }
      guard let key = handlerKey(task.reach) else {
        unplaced.append("-- not placed: beginBackgroundTask at \(cite(task.fact.place)) (the scan cannot tell which handler reaches it)")
        summary.note(.unplaced("beginBackgroundTask at " + cite(task.fact.place)))
        for place in [task.fact.place] + exits { summary.noteUnplacedTask(begun: task.fact.place, guarding: place) }
        continue
      }
      summary.note(.backgroundTask)
      let site = choiceSite(task.fact.place)
      for place in [task.fact.place] + exits {
        summary.noteChoice(site: site, guarding: place)
        if task.fact.expiration == .unknown { summary.noteChoice(site: choiceSite(task.fact.place) + " expiration", guarding: place) }
      }
      let open = exits.isEmpty ? [] : Self.citing("  -- (as the Swift does on the paths that leave it open, at ", exits.map(cite), ")")
      placements[key, default: []] += expirationNote(task) + [
        "  -- beginBackgroundTask at " + cite(task.fact.place), "  local task",
        "  task = UIApplication.shared:beginBackgroundTask(\(LuaStringLiteral.quote(task.name ?? "task")), function()",
      ] + expirationBody(task) + [
        "  end)",
        "  -- the work it covers: true ends the task a second later, false keeps it open past the allowance",
      ] + open + [
        "  if choose(\(LuaStringLiteral.quote(site))) then",
        "    after(1, function() UIApplication.shared:endBackgroundTask(task) end)",
        "  end",
      ]
    }
  }

  /// Each read of the app delegate's `window` and each `UIWindow(frame:)` where the Swift makes
  /// it, named by its Swift place (`UIApplication.shared:delegateWindow(site)`, `:frameWindow(site)`):
  /// UIKit answers, and the log records the answer.
  private func placeWindowCalls(_ placements: inout Placements, unplaced: inout [String], _ summary: inout MirrorSummary) {
    let calls = report.windowReads.map { ($0, false, "a read of the app delegate's window", "reads the app delegate's window", "delegateWindow") }
      + report.frameWindows.map { ($0, true, "a UIWindow(frame:)", "makes a window from a frame, key and visible,", "frameWindow") }
    for (call, makesWindow, what, does, function) in calls {
      guard let key = handlerKey(call.reach) else {
        unplaced.append("-- not placed: \(what) at \(cite(call.place)) (the scan cannot tell which handler reaches it)")
        summary.note(.unplaced("\(what) at " + cite(call.place)))
        continue
      }
      let site = choiceSite(call.place)
      // One only a notification observer reaches stays a comment (`deferring`): no run makes it.
      if Self.lowered(call.reach) {
        summary.noteWindowCall(site: site, at: call.place, makesWindow: makesWindow)
      } else {
        summary.note(.observed("\(what) at " + cite(call.place)))
      }
      let made = choosing(["  UIApplication.shared:\(function)(\(LuaStringLiteral.quote(site)))"], call.condition, guarding: call.place, &summary)
      placements[key, default: []] += ["  -- \(does) at " + cite(call.place)] + deferring(made, call.reach)
    }
  }

  /// What the Swift's expiration handler does, in the Lua one.
  private func expirationBody(_ task: BackgroundTask) -> [String] {
    switch task.fact.expiration {
    case .endsTask: return ["    UIApplication.shared:endBackgroundTask(task)"]
    case .leavesTaskOpen where task.fact.expirationEndsLater:
      return ["    -- the Swift's handler ends the task later, in a closure it starts: still open when it returns",
              "    after(0, function() UIApplication.shared:endBackgroundTask(task) end)"]
    case .leavesTaskOpen: return ["    -- the Swift's expiration handler does not end the task"]
    case .unknown:
      return ["    if choose(\(LuaStringLiteral.quote(choiceSite(task.fact.place) + " expiration"))) then",
              "      UIApplication.shared:endBackgroundTask(task)", "    end"]
    }
  }

  /// A handler the scan cannot read (a function passed by name) is a choice of its own (true ends
  /// the task), and said so.
  private func expirationNote(_ task: BackgroundTask) -> [String] {
    task.fact.expiration == .unknown
      ? [Self.notLoweredPrefix + "the expiration handler of the task begun at " + cite(task.fact.place) + " is not a closure the scan reads",
         "  -- (its own choice, \"… expiration\": true ends the task)"] : []
  }

  /// `AppDelegate.didFinishLaunchingWithOptions` for the handler an entry point is; launch code
  /// outside the app delegate (a SwiftUI `App`) is didFinishLaunching's; nil when unknown.
  private func handlerKey(_ reach: Reach) -> String? {
    guard let entry = reach.entry else { return nil }
    guard let callback = Callback(signature: entry.selector), let table = Self.table(callback.receiver) else {
      if case .launch = reach { return "AppDelegate.didFinishLaunchingWithOptions" }
      return nil
    }
    return table + "." + callback.key
  }

  private static func table(_ receiver: Callback.Receiver) -> String? {
    switch receiver {
    case .appDelegate: return "AppDelegate"
    case .sceneDelegate: return "SceneDelegate"
    case .notificationDelegate: return "NotificationDelegate"
    default: return nil
    }
  }

  private static func split(_ key: String) -> (String, String) {
    let parts = key.split(separator: ".", maxSplits: 1)
    return (String(parts[0]), String(parts[1]))
  }

  /// `file:line`, safe in a comment.
  func cite(_ place: SourcePlace) -> String {
    let file = place.file.hasPrefix(root) ? String(place.file.dropFirst(root.count)) : place.file
    return LuaStringLiteral.comment("\(file):\(place.line)")
  }

  /// One stub per handler the Swift implements (methods in several `#if` branches or types
  /// share it), with what the placements put in it; methods the model does not deliver are
  /// listed as comments.
  private func stubs(_ table: String, placements: inout Placements, bodies: inout [String: [String]]) -> [String] {
    var lines: [String] = []
    var done: Set<String> = []
    for method in report.methods where Self.table(for: method.role) == table {
      guard let callback = Callback(signature: method.selector) else {
        lines += ["", "-- not modelled by lifesim: \(LuaStringLiteral.comment(method.type + "." + method.selector)) at \(cite(method.place))"]
        continue
      }
      let key = table + "." + callback.key
      guard done.insert(key).inserted else { continue }
      let sources = report.methods.filter { Self.table(for: $0.role) == table && $0.selector == method.selector }
      lines.append("")
      for source in sources {
        let branch = source.condition.map { " (#if \(LuaStringLiteral.comment($0)))" } ?? ""
        lines.append("-- \(LuaStringLiteral.comment(source.type + "." + source.selector))\(branch)")
        lines.append("--   at \(cite(source.place))")
      }
      lines.append("function \(key)(...)")
      lines.append("  log(\(LuaStringLiteral.quote(key)))")
      let body = (placements.removeValue(forKey: key) ?? []) + (Self.completes.contains(callback) ? completion(of: sources) : [])
      bodies[key] = body
      lines += body
      if Self.returnsTrue(table, callback.key) { lines.append("  return true") }
      lines.append("end")
    }
    return lines
  }

  /// The completion handler's call as the Swift makes it: none when no implementation names
  /// it; else called, with the paths that leave without it cited (one path is run: the mirror
  /// cannot yet choose between them).
  private func completion(of sources: [DelegateMethod]) -> [String] {
    if sources.allSatisfy(\.ignoresCompletion) {
      return ["  -- the Swift never calls its completionHandler (" + sources.map { cite($0.place) }.joined(separator: ", ") + "): nor does the mirror"]
    }
    let open = sources.flatMap { source in source.completionOpenExits.map { cite(SourcePlace(file: source.place.file, line: $0)) } }
    let note = open.isEmpty ? [] : ["  -- not lowered: the Swift leaves without calling its completionHandler at " + open.joined(separator: ", ")]
    return note + ["  complete(...)"]
  }

  /// The Lua table of a role; a CarPlay scene's delegate has none (the model has no CarPlay scene).
  private static func table(for role: DelegateRole) -> String? {
    switch role {
    case .application: return "AppDelegate"
    case .scene: return "SceneDelegate"
    case .notification: return "NotificationDelegate"
    case .carPlay: return nil
    }
  }

  /// The handlers UIKit hands a completion handler to, last.
  private static let completes: Set<Callback> = [
    .willPresent, .didReceive, .performFetchWithCompletionHandler, .didReceiveRemoteNotification,
    .performActionForShortcutItem, .scenePerformActionForShortcutItem, .handleEventsForBackgroundURLSession,
  ]

  /// The app-delegate handlers whose Bool UIKit reads, where the stub says yes.
  private static func returnsTrue(_ table: String, _ key: String) -> Bool {
    table == "AppDelegate" && [Callback.willFinishLaunchingWithOptions, .didFinishLaunchingWithOptions, .openURL, .continueUserActivity].map(\.key).contains(key)
  }
}

extension LuaAppWriter {
  /// The manifest the emitted app declares: the Info.plist's, when the scan read it; none for a
  /// SwiftUI app, whose life cycle is scene-based whatever its plist says.
  package static func declaredManifest(_ report: ScanReport) -> SceneManifest? {
    report.isSwiftUIApp ? nil : report.sceneManifest
  }

  /// The `scenes` a scenario pins: none when the app declares its manifest, which decides them.
  package static func pinnedScenes(_ report: ScanReport) -> Bool? {
    declaredManifest(report) == nil ? report.scenes : nil
  }

  /// `, choose = { … }` forcing each of `choices`: the conditions true (the app doing what its
  /// Swift does when each holds) and the request choices as the run needs them, one site a line,
  /// or all on one (`oneLine`: a battery scenario, whose template's lines keep their numbers);
  /// empty without choices.
  package static func chooseDeclaration(_ choices: [(site: String, value: Bool)], oneLine: Bool = false) -> String {
    guard !choices.isEmpty else { return "" }
    let entries = choices.prefix(ForcedChoices.maxSites).map { "[\(LuaStringLiteral.quote($0.site))] = \($0.value)" }
    return oneLine ? ", choose = { " + entries.joined(separator: ", ") + " }" : ", choose = {\n" + entries.map { "  \($0),\n" }.joined() + "}"
  }

  /// The scenarios written beside the app, each carrying `scenes` as the Swift declares it, and
  /// its `choose` outcomes (`choices`: each condition true, the default request choices).
  package func scenarios(choosing choices: [(site: String, value: Bool)]) -> [(name: String, text: String)] {
    let pinned = Self.pinnedScenes(report).map { ", scenes = \($0)" } ?? ""
    let head = { (title: String) in
      "-- Written by `lifesim scan --emit-app`: \(title) of the app it wrote (app.lua).\n"
        + "scenario { name = \(LuaStringLiteral.quote(title)), ios = \(IOSRelease.defaultVersion)\(pinned), app = \"app.lua\""
        + "\(Self.chooseDeclaration(choices)) }\n\n"
    }
    return [
      ("cold_launch.lua", head("cold launch") + "launch()\nexpect_state(\"active\")\n"),
      ("home_and_return.lua", head("home and return")
        + "launch()\nexpect_state(\"active\")\n\nhome()\nadvance(60)\nexpect_state(\"suspended\")\n\nlaunch()\nexpect_state(\"active\")\n"),
    ]
  }
}
