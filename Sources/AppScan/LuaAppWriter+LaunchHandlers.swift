import ScriptHost

/// The BGTask launch handlers of the mirror: each registration's handler does what the Swift's
/// does with its task, as far as the scan reads it (`TaskHandlerFact`): the expiration handler it
/// sets, and whether it completes the task. What the scan cannot decide becomes a choice: a
/// handler with a path that leaves the task incomplete completes it when its `choose` is true;
/// an expiration handler that calls code the scan does not follow completes it when its own is.
extension ScanReport {
  /// The launch handler given to `registration` and the functions it hands the task to, nil
  /// when the scan read none (the mirror's shared `launchHandler` stands in).
  func launchHandlerFacts(_ registration: ResolvedRegistration) -> [TaskHandlerFact]? {
    guard let given = taskHandlers.first(where: { $0.registeredAt == registration.place }) else { return nil }
    let onward = given.handsTo.flatMap { name in taskHandlers.filter { $0.functionName == name } }
    return [given] + onward
  }
}

extension LuaAppWriter {
  /// `BGTaskScheduler:register(id, …)` with the handler the Swift gives, or the shared one.
  func registerLines(_ quoted: String, _ registration: ResolvedRegistration, _ summary: inout MirrorSummary) -> [String] {
    guard let handlers = report.launchHandlerFacts(registration), let given = handlers.first else {
      return ["  BGTaskScheduler:register(\(quoted), launchHandler)"]
    }
    let exits = handlers.flatMap { handler in handler.openExits.map { SourcePlace(file: handler.place.file, line: $0) } }
    let named = handlers.dropFirst().map { "\(LuaStringLiteral.comment($0.functionName ?? "")) at \(cite($0.place))" }
    return ["  BGTaskScheduler:register(\(quoted), function(task)"]
      + Self.citing("    -- the Swift's launch handler at ", [cite(given.place)] + named.map { "and " + $0 })
      + expirationLines(handlers, guarding: exits, &summary)
      + inTime(handlers, completionLines(handlers, exits: exits, &summary), &summary) + ["  end)"]
  }

  /// The handler whose expiration handler the task gets: the closure's own, else the first
  /// function it hands the task to.
  private func expirationDecider(_ handlers: [TaskHandlerFact]) -> TaskHandlerFact {
    if case .notFollowed = handlers[0].expiration, handlers.count > 1 { return handlers[1] }
    return handlers[0]
  }

  /// Where the expiration handler is missing or does nothing (a `bgtask_expiration_missing`),
  /// the completion under a choice of its own: true, the work ends within the task's time; false,
  /// it runs past it and the system ends the task first, which is what the finding is about.
  private func inTime(_ handlers: [TaskHandlerFact], _ completion: [String], _ summary: inout MirrorSummary) -> [String] {
    let decider = expirationDecider(handlers)
    let finding: SourcePlace
    switch decider.expiration {
    case .missing: finding = decider.place
    case let .doesNotComplete(line): finding = SourcePlace(file: decider.place.file, line: line)
    case .completes, .notFollowed: return completion
    }
    guard completion.contains(where: { $0.contains("task:setTaskCompleted") }) else { return completion }
    let site = choiceSite(handlers[0].place) + " in time"
    summary.noteChoice(site: site, guarding: finding)
    return ["    -- true: the work ends within the task's time; false: it runs past it, and the system ends the task first",
            "    if choose(\(LuaStringLiteral.quote(site))) then"] + completion.map { "  " + $0 } + ["    end"]
  }

  /// The expiration handler the Swift sets: the closure's own, else the one of a function it
  /// hands the task to.
  private func expirationLines(_ handlers: [TaskHandlerFact], guarding exits: [SourcePlace], _ summary: inout MirrorSummary) -> [String] {
    let decider = expirationDecider(handlers)
    switch decider.expiration {
    case .completes:
      return ["    task.expirationHandler = function() task:setTaskCompleted(false) end"]
    case .missing:
      return ["    -- the Swift sets no expirationHandler"]
    case let .doesNotComplete(line):
      return ["    -- the Swift's expiration handler at " + cite(SourcePlace(file: decider.place.file, line: line)) + " does nothing for the task",
              "    task.expirationHandler = function() end"]
    case let .notFollowed(why):
      let site = choiceSite(handlers[0].place) + " expiration"
      for place in exits { summary.noteChoice(site: site, guarding: place) }
      return ["    -- " + LuaStringLiteral.comment(why) + ": true completes the task when it expires",
              "    task.expirationHandler = function()",
              "      if choose(\(LuaStringLiteral.quote(site))) then",
              "        task:setTaskCompleted(false)",
              "      end",
              "    end"]
    }
  }

  /// The task's completion: at once on every path the Swift completes it; under a choice where
  /// some path leaves it incomplete (false takes that path); never where the Swift never does.
  private func completionLines(_ handlers: [TaskHandlerFact], exits: [SourcePlace], _ summary: inout MirrorSummary) -> [String] {
    if exits.isEmpty { return ["    task:setTaskCompleted(true)"] }
    if handlers.count == 1, exits.contains(handlers[0].place) {
      return ["    -- the Swift never calls setTaskCompleted: nor does the mirror"]
    }
    let site = choiceSite(handlers[0].place)
    for place in exits { summary.noteChoice(site: site, guarding: place) }
    return Self.citing("    -- true completes the task; false takes a path that leaves it incomplete, at ", exits.map(cite))
      + ["    if choose(\(LuaStringLiteral.quote(site))) then", "      task:setTaskCompleted(true)", "    end"]
  }
}
