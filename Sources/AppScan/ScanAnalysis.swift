import Lifecycle

/// Turns the facts of all files into the report: which types play which delegate role, which
/// methods they implement, and how each registration and delegate assignment is reached.
struct ScanAnalysis {
  let facts: SwiftFacts
  let appDelegates: Set<String>
  let roleTypes: [DelegateRole: Set<String>]
  let swiftUIApps: Set<String>
  /// The target's bundle identifier, for `Bundle.main.bundleIdentifier` in an identifier.
  let bundleIdentifier: String?
  /// The constants by the last part of their name, for resolving names in linear time.
  let constantsByLastName: [String: [ConstantFact]]
  /// Each name's value once resolved (a name defined from itself, or `a = a + a + …`, is
  /// resolved once, not once per path to it).
  private let memo = ResolutionMemo()
  /// The selectors the app's own functions define outside `UIApplication`'s extensions.
  let ownSelectors: Set<String>
  /// The base names of the app's own functions, delegate methods (`application…`, `scene…`) aside.
  let ownBaseNames: Set<String>

  init(facts: SwiftFacts, report: ScanReport) {
    self.facts = facts
    var roles: [DelegateRole: Set<String>] = [:]
    for role in DelegateRole.allCases {
      roles[role] = Set(facts.types.filter { !role.protocols.isDisjoint(with: $0.conformances) }.map(\.name))
    }
    // `@UIApplicationMain` / `@main` on a UIResponder, and the adaptor's class, are app delegates.
    roles[.application]!.formUnion(facts.adaptors.map(\.delegateType))
    roles[.application]!.formUnion(facts.types.filter { $0.isMain && $0.conformances.contains("UIResponder") }.map(\.name))
    // The manifest names scene delegates by role: CarPlay's roles are CarPlay scenes.
    for (name, role, _, _) in report.plistFacts?.sceneDelegates ?? [] {
      roles[role.hasPrefix("CPTemplateApplication") ? .carPlay : .scene]!.insert(name)
    }
    roles[.scene]!.subtract(roles[.carPlay]!)
    roleTypes = roles
    bundleIdentifier = report.bundleIdentifier
    constantsByLastName = Dictionary(grouping: facts.constants) { String($0.qualifiedName.split(separator: ".").last ?? "") }
    ownSelectors = Set(facts.functions.filter { $0.owner != "UIApplication" }.map(\.selector))
    ownBaseNames = Set(facts.functions.map(\.baseName).filter { name in
      !["application", "scene", "windowScene", "userNotificationCenter"].contains { name.hasPrefix($0) }
    })
    appDelegates = roles[.application]!
    let adaptorOwners = Set(facts.adaptors.compactMap(\.owner))
    swiftUIApps = Set(facts.types.filter { $0.conformances.contains("App") && ($0.isMain || adaptorOwners.contains($0.name)) }.map(\.name))

  }

  func run(into report: inout ScanReport) {
    report.isSwiftUIApp = !swiftUIApps.isEmpty
    report.appDelegate = facts.types.first { appDelegates.contains($0.name) && !$0.isExtension }?.name ?? appDelegates.sorted().first
    var entries: [Int: Reach] = [:]
    for (index, function) in facts.functions.enumerated() {
      guard let owner = function.owner else { continue }
      if swiftUIApps.contains(owner), function.selector == "init()" {
        entries[index] = .launch(EntryPoint(type: owner, selector: function.selector))
      }
      for role in DelegateRole.allCases where roleTypes[role]!.contains(owner) {
        guard let selector = role.implementedSelector(function.selector, isAsync: function.isAsync) else { continue }
        report.methods.append(DelegateMethod(role: role, type: owner, selector: selector, place: function.place, condition: function.condition,
                                             ignoresCompletion: function.ignoresCompletion, completionOpenExits: function.completionOpenExits,
                                             calls: Self.baseCalls(function), connectionPayloads: function.connectionPayloads))
        let entry = EntryPoint(type: owner, selector: selector)
        let isLaunch = role == .application && SceneReplacements.launchSelectors.contains(selector)
        entries[index] = isLaunch ? .launch(entry) : (entries[index] ?? .late(entry))
      }
    }
    let graph = CallGraph(functions: facts.functions, entries: entries)
    resolveCalls(graph, into: &report)
    let appMethods = Set(report.selectors(.application))
    // Scenes as UIKit decides them, from the manifest beside the app delegate's configuration
    // method (Lifecycle's SceneAdoption, the rule runs use); with the Info.plist unknown, the
    // method alone. SwiftUI's life cycle is scene-based.
    let method = appMethods.contains("application(_:configurationForConnecting:options:)")
    report.hasConfigurationMethod = method
    report.scenes = report.isSwiftUIApp
      || report.sceneManifest.map { SceneAdoption.usesScenes(manifest: $0, hasConfigurationMethod: method) } ?? method
    report.windows = facts.windows.filter { $0.owner.map(appDelegates.contains) ?? false }
    report.windowReads = appWindowReads(graph)
    report.frameWindows = report.windows.map { WindowCall(place: $0.place, reach: graph.reach(of: $0.function), condition: $0.condition) }
    report.callGraph = ownCallGraph()
    report.taskHandlers = facts.taskHandlers
    for request in facts.taskRequests {
      guard let identifier = resolve(request.identifier), report.requestKinds[identifier] == nil else { continue }
      report.requestKinds[identifier] = request.kind
    }
    let defined = Set(facts.types.filter { !$0.isExtension }.map(\.name))
    for delegate in report.plistFacts?.sceneDelegates ?? [] where !defined.contains(delegate.className) {
      // `delegateClass` set in code on this configuration (or on one the scan cannot name)
      // replaces the plist's class: UIKit never looks for it.
      if let set = facts.delegateClassOverrides.first(where: { $0.configuration == nil || $0.configuration == delegate.configuration }) {
        let which = set.configuration.map { "configuration \"\($0)\"" } ?? "a scene configuration the scan cannot name"
        report.notFollowed.append(ScanNote(code: ScanRule.StaticCode.sceneClassMissing.rawValue, place: set.place,
                                           why: "the scene manifest names \(delegate.className), which no scanned file defines; the code sets the delegateClass of \(which), so UIKit does not look for it"))
      } else {
        report.undefinedSceneDelegates.append((delegate.className, delegate.line))
      }
    }
    report.restoration = RestorationShape(
      activity: report.selectors(.scene).contains("stateRestorationActivity(for:)"),
      restorationIdentifiers: facts.restorationIdentifiers.count,
      saveRestorePair: (appMethods.contains("application(_:shouldSaveSecureApplicationState:)") && appMethods.contains("application(_:shouldRestoreSecureApplicationState:)"))
        || (appMethods.contains("application(_:shouldSaveApplicationState:)") && appMethods.contains("application(_:shouldRestoreApplicationState:)")))
    report.rootController = facts.rootControllers.first
  }

  private func resolveCalls(_ graph: CallGraph, into report: inout ScanReport) {
    report.registrations = facts.registrations.map { fact in
      let reach: Reach = fact.isSwiftUIModifier
        ? .launch(EntryPoint(type: fact.function.flatMap { facts.functions[$0].owner } ?? "App", selector: graph.selector(of: fact.function) ?? "body"))
        : graph.reach(of: fact.function).deferred(by: fact.deferredBy)
      return ResolvedRegistration(identifier: resolve(fact.identifier), reach: reach, enclosing: graph.selector(of: fact.function),
                                  place: fact.place, isSwiftUIModifier: fact.isSwiftUIModifier, condition: fact.condition)
    }
    // The first assignment reached at launch, else the first one.
    let assignments = facts.delegateAssignments.map {
      DelegateAssignment(reach: graph.reach(of: $0.function).deferred(by: $0.deferredBy), enclosing: graph.selector(of: $0.function),
                         place: $0.place, condition: $0.condition)
    }
    report.notificationDelegate = assignments.first { if case .launch = $0.reach { return true }; return false } ?? assignments.first
    report.backgroundTasks = facts.backgroundTasks.filter(isUIKits).map { BackgroundTask(fact: $0, name: resolve($0.name), reach: graph.reach(of: $0.function)) }
  }

  /// Reads of the app delegate's own `window` property, and of any app delegate's through
  /// `UIApplication.shared.delegate`, outside methods a scene app never calls; none when any
  /// code sets it (a scene delegate handing its window over, or the app delegate making one).
  private func appWindowReads(_ graph: CallGraph) -> [WindowCall] {
    let properties = Set(facts.windowProperties).intersection(appDelegates)
    let uses = facts.windowUses.filter { $0.viaDelegate || $0.owner.map(properties.contains) == true }
    guard !uses.contains(where: \.isWrite) else { return [] }
    return uses.filter { use in
      use.function.map { SceneReplacements.replacement(for: facts.functions[$0].selector) == nil || !appDelegates.contains(use.owner ?? "") } ?? true
    }.map { WindowCall(place: $0.place, reach: graph.reach(of: $0.function)) }
  }

  /// What a function calls, by base name, now or deferred.
  private static func baseCalls(_ function: FunctionFact) -> Set<String> {
    function.calls.union(function.deferredCalls.keys).filter { !$0.contains("(") }
  }

  /// Each of the app's own functions (delegate methods aside), by base name, with what the
  /// functions of that name call: how a comparison follows work moved into a helper.
  private func ownCallGraph() -> [String: Set<String>] {
    var graph: [String: Set<String>] = [:]
    for function in facts.functions where ownBaseNames.contains(function.baseName) {
      graph[function.baseName, default: []].formUnion(Self.baseCalls(function))
    }
    return graph
  }

  /// UIKit's selectors for beginning a background task: Swift imports the nullable handler
  /// with a default of nil, so `beginBackgroundTask(withName:)` and `beginBackgroundTask()` are UIKit's too.
  static let beginSelectors: Set<String> = [
    "beginBackgroundTask()", "beginBackgroundTask(expirationHandler:)", "beginBackgroundTask(withName:)", "beginBackgroundTask(withName:expirationHandler:)",
  ]

  /// Whether a `beginBackgroundTask` call is UIKit's, not the app's own helper of that name: its
  /// selector is UIKit's, and it is made on the application or no function the scanned files
  /// define has that selector (a call to a function the app defines is that function).
  func isUIKits(_ task: BackgroundTaskFact) -> Bool {
    guard Self.beginSelectors.contains(task.selector) else { return false }
    if task.receiver == .application { return true }
    return !ownSelectors.contains(task.selector)
  }

  /// A literal's text; a name's value when exactly one constant matches it (`Tasks.refresh`
  /// matches `Tasks.refresh` and `App.Tasks.refresh`; `refresh` alone matches any `….refresh`
  /// only when the values agree); joined text when every part resolves; the target's bundle
  /// identifier. Resolution follows at most 16 names (a constant defined by itself ends there).
  func resolve(_ expression: IdentifierExpression, depth: Int = 0) -> String? {
    guard depth < 16 else { return nil }
    switch expression {
    case let .literal(text): return text
    case .unknown: return nil
    case .bundleIdentifier: return bundleIdentifier
    case let .concatenation(parts):
      var text = ""
      for part in parts {
        guard let resolved = resolve(part, depth: depth + 1), text.utf8.count + resolved.utf8.count <= Self.maxIdentifierBytes else { return nil }
        text += resolved
      }
      return text
    case let .scoped(name, scope):
      return resolve(name, in: scope, depth: depth)
    case let .reference(name):
      let trimmed = name.hasPrefix("self.") ? String(name.dropFirst(5)) : (name.hasPrefix("Self.") ? String(name.dropFirst(5)) : name)
      if let known = memo.values[trimmed] { return known }
      memo.values[trimmed] = .some(nil)   // a name met again while it is resolved is unknown
      let matching = constantsByLastName[String(trimmed.split(separator: ".").last ?? "")] ?? []
      let exact = matching.filter { $0.qualifiedName == trimmed || $0.qualifiedName.hasSuffix("." + trimmed) }
      let values = Set(exact.map { resolve($0.value, depth: depth + 1) })
      let value = values.count == 1 ? values.first! : nil
      memo.values[trimmed] = .some(value)
      return value
    }
  }

  /// A bare name written in the type `scope`: the constant of that name in `scope`, else in
  /// each type around it (`A.B.x`, then `A.x`), else any constant of the name, as a reference.
  private func resolve(_ name: String, in scope: String, depth: Int) -> String? {
    var types = scope.split(separator: ".").map(String.init)
    let candidates = constantsByLastName[name] ?? []
    while !types.isEmpty {
      let qualified = (types + [name]).joined(separator: ".")
      let exact = candidates.filter { $0.qualifiedName == qualified }
      if !exact.isEmpty {
        let key = "=" + qualified
        if let known = memo.values[key] { return known }
        memo.values[key] = .some(nil)   // a name met again while it is resolved is unknown
        let values = Set(exact.map { resolve($0.value, depth: depth + 1) })
        let value = values.count == 1 ? values.first! : nil
        memo.values[key] = .some(value)
        return value
      }
      types.removeLast()
    }
    return resolve(.reference(name), depth: depth + 1)
  }

  /// The longest identifier the scan assembles: far past any real one.
  static let maxIdentifierBytes = 1_024
}

/// The values of names already resolved, shared by one analysis.
final class ResolutionMemo {
  var values: [String: String?] = [:]
}
