/// Turns the facts of all files into the report: which types play which delegate role, which
/// methods they implement, and how each registration and delegate assignment is reached.
struct ScanAnalysis {
  let facts: SwiftFacts
  let appDelegates: Set<String>
  let roleTypes: [DelegateRole: Set<String>]
  let swiftUIApps: Set<String>

  init(facts: SwiftFacts, report: ScanReport) {
    self.facts = facts
    var roles: [DelegateRole: Set<String>] = [:]
    for role in DelegateRole.allCases {
      roles[role] = Set(facts.types.filter { !role.protocols.isDisjoint(with: $0.conformances) }.map(\.name))
    }
    // `@UIApplicationMain` / `@main` on a UIResponder, and the adaptor's class, are app delegates.
    roles[.application]!.formUnion(facts.adaptors.map(\.delegateType))
    roles[.application]!.formUnion(facts.types.filter { $0.isMain && $0.conformances.contains("UIResponder") }.map(\.name))
    roles[.scene]!.formUnion(report.plistFacts?.sceneDelegateClasses ?? [])
    roleTypes = roles
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
        report.methods.append(DelegateMethod(role: role, type: owner, selector: selector, place: function.place, condition: function.condition))
        let entry = EntryPoint(type: owner, selector: selector)
        let isLaunch = role == .application && SceneReplacements.launchSelectors.contains(selector)
        entries[index] = isLaunch ? .launch(entry) : (entries[index] ?? .late(entry))
      }
    }
    let graph = CallGraph(functions: facts.functions, entries: entries)
    resolveCalls(graph, into: &report)
    let appMethods = Set(report.selectors(.application))
    report.scenes = report.scenes || report.isSwiftUIApp || appMethods.contains("application(_:configurationForConnecting:options:)")
    report.windows = facts.windows.filter { $0.owner.map(appDelegates.contains) ?? false }
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
        : graph.reach(of: fact.function)
      return ResolvedRegistration(identifier: resolve(fact.identifier), reach: reach, enclosing: graph.selector(of: fact.function),
                                  place: fact.place, isSwiftUIModifier: fact.isSwiftUIModifier)
    }
    // The first assignment reached at launch, else the first one.
    let assignments = facts.delegateAssignments.map {
      DelegateAssignment(reach: graph.reach(of: $0.function), enclosing: graph.selector(of: $0.function), place: $0.place)
    }
    report.notificationDelegate = assignments.first { if case .launch = $0.reach { return true }; return false } ?? assignments.first
    report.backgroundTasks = facts.backgroundTasks.map { BackgroundTask(fact: $0, name: resolve($0.name), reach: graph.reach(of: $0.function)) }
  }

  /// A literal's text; a name's value when exactly one constant matches it (`Tasks.refresh`
  /// matches `Tasks.refresh` and `App.Tasks.refresh`; `refresh` alone matches any `….refresh`
  /// only when the values agree).
  func resolve(_ expression: IdentifierExpression) -> String? {
    switch expression {
    case let .literal(text): return text
    case .unknown: return nil
    case let .reference(name):
      let trimmed = name.hasPrefix("self.") ? String(name.dropFirst(5)) : (name.hasPrefix("Self.") ? String(name.dropFirst(5)) : name)
      let exact = facts.constants.filter { $0.qualifiedName == trimmed || $0.qualifiedName.hasSuffix("." + trimmed) }
      let values = Set(exact.map(\.value))
      return values.count == 1 ? values.first : nil
    }
  }
}
