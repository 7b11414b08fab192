import Lifecycle

/// The findings that follow paths through a function (a task begun and not ended, a BGTask
/// not completed), conditions around launch work, and the scene app's window and classes.
extension StaticChecks {
  static func pathDiagnostics(_ report: ScanReport) -> [ScanDiagnostic] {
    tasksNotEnded(report) + launchHandlers(report).diagnostics + conditionalRegistrations(report)
      + appWindowNil(report) + sceneClassesMissing(report)
  }

  /// What the scan looked at and did not follow, for `--explain`.
  static func notes(_ report: ScanReport) -> [ScanNote] {
    var notes = launchHandlers(report).notes
    for task in report.backgroundTasks where task.fact.expiration == .unknown {
      notes.append(ScanNote(code: Diagnostic.Code.taskOpenAfterExpiration.rawValue, place: task.fact.place,
                            why: "the expiration handler is a function value; what it does is not followed"))
    }
    for registration in report.registrations where registration.reach == .unknown && !registration.isSwiftUIModifier {
      notes.append(ScanNote(code: ScanRule.StaticCode.bgtaskRegisteredLate.rawValue, place: registration.place,
                            why: "no entry point the scan found calls \(registration.enclosing ?? "this code"), so when it runs is not known"))
    }
    if report.files.objectiveC > 0 {
      for (name, line) in report.undefinedSceneDelegates {
        notes.append(ScanNote(code: ScanRule.StaticCode.sceneClassMissing.rawValue, place: SourcePlace(file: report.plistFacts?.path ?? "Info.plist", line: line),
                              why: "\(name) is not defined in Swift, and the scan does not read the \(report.files.objectiveC) Objective-C files it saw"))
      }
    }
    return notes.sorted { $0.place < $1.place }
  }

  private static func tasksNotEnded(_ report: ScanReport) -> [ScanDiagnostic] {
    report.backgroundTasks.flatMap { task in
      task.fact.openExits.map { line in
        ScanDiagnostic(code: ScanRule.StaticCode.taskNotEnded.rawValue, handler: nil, place: SourcePlace(file: task.fact.place.file, line: line),
                       message: "the background task\(task.name.map { " \"\($0)\"" } ?? "") begun at line \(task.fact.place.line) is still open on the path that leaves here: end it (endBackgroundTask) on every path, or with defer")
      }
    }
  }

  /// The launch handlers given to `register`, each joined with the functions it hands its task to.
  private static func launchHandlers(_ report: ScanReport) -> (diagnostics: [ScanDiagnostic], notes: [ScanNote]) {
    let functions = Dictionary(grouping: report.taskHandlers.filter { $0.functionName != nil }) { $0.functionName! }
    var found: [ScanDiagnostic] = []
    var notes: [ScanNote] = []
    var seen: Set<String> = []
    for closure in report.taskHandlers where closure.functionName == nil {
      let targets = closure.handsTo.flatMap { functions[$0] ?? [] }
      // An expiration handler the closure sets itself stands for the functions it hands the task to.
      var closureDecides = true
      if case .notFollowed = closure.expiration { closureDecides = false }
      for handler in [closure] + targets where seen.insert("\(handler.place.file):\(handler.place.line)").inserted {
        found += notCompleted(handler)
        if handler.functionName == nil, !targets.isEmpty, case .notFollowed = handler.expiration { continue }
        if handler.functionName != nil, closureDecides { continue }
        switch handler.expiration {
        case .completes: break
        case .missing:
          found.append(ScanDiagnostic(code: ScanRule.StaticCode.bgtaskExpirationMissing.rawValue, handler: nil, place: handler.place,
                                      message: "this BGTask launch handler sets no expirationHandler: when the system ends the task's time, nothing stops its work or completes it"))
        case let .doesNotComplete(line):
          found.append(ScanDiagnostic(code: ScanRule.StaticCode.bgtaskExpirationMissing.rawValue, handler: nil, place: SourcePlace(file: handler.place.file, line: line),
                                      message: "this expiration handler neither calls setTaskCompleted nor stops any work: the task is never completed when its time ends"))
        case let .notFollowed(why):
          let onward = targets.isEmpty && !closure.handsTo.isEmpty ? "it hands the task to \(closure.handsTo.joined(separator: ", ")), which the scanned files do not define as a function taking a BGTask" : why
          notes.append(ScanNote(code: ScanRule.StaticCode.bgtaskExpirationMissing.rawValue, place: handler.place, why: onward))
        }
      }
    }
    return (found, notes)
  }

  private static func notCompleted(_ handler: TaskHandlerFact) -> [ScanDiagnostic] {
    handler.openExits.map { line in
      let never = line == handler.place.line
      return ScanDiagnostic(code: ScanRule.StaticCode.bgtaskNotCompleted.rawValue, handler: nil, place: SourcePlace(file: handler.place.file, line: line),
                            message: never ? "this BGTask launch handler never calls setTaskCompleted and does not hand the task on: the task is never completed"
                                           : "a path of this BGTask launch handler leaves here without calling setTaskCompleted: the task is never completed")
    }
  }

  /// A registration or notification delegate reached at launch, but only under a condition.
  private static func conditionalRegistrations(_ report: ScanReport) -> [ScanDiagnostic] {
    var found: [ScanDiagnostic] = []
    for registration in report.registrations {
      guard case .launch = registration.reach, let condition = registration.condition else { continue }
      let shown = registration.identifier.map { "\"\($0)\"" } ?? "(an identifier the scan cannot read)"
      found.append(ScanDiagnostic(code: ScanRule.StaticCode.registeredConditionally.rawValue, handler: nil, place: registration.place,
                                  message: "BGTask \(shown) is registered \(condition.description): a launch that skips it cannot run the task, and the system's launch for it crashes"))
    }
    if let assignment = report.notificationDelegate, case .launch = assignment.reach, let condition = assignment.condition {
      found.append(ScanDiagnostic(code: ScanRule.StaticCode.registeredConditionally.rawValue, handler: nil, place: assignment.place,
                                  message: "the UNUserNotificationCenter delegate is set \(condition.description): a launch that skips it drops the notification response that launched the app"))
    }
    return found
  }

  private static func appWindowNil(_ report: ScanReport) -> [ScanDiagnostic] {
    guard report.scenes else { return [] }
    return report.appWindowReads.map { place in
      ScanDiagnostic(code: ScanRule.StaticCode.appWindowNil.rawValue, handler: nil, place: place,
                     message: "the app delegate's window is read in a scene app, where UIKit never sets it and no code here does: it is nil; use the scene's window")
    }
  }

  /// Not given when the scan saw Objective-C files, where the class may be defined.
  private static func sceneClassesMissing(_ report: ScanReport) -> [ScanDiagnostic] {
    guard report.files.objectiveC == 0, let plist = report.plistFacts?.path else { return [] }
    return report.undefinedSceneDelegates.map { name, line in
      ScanDiagnostic(code: ScanRule.StaticCode.sceneClassMissing.rawValue, handler: nil, place: SourcePlace(file: plist, line: line),
                     message: "the scene manifest names \(name) as a scene delegate, and no scanned file defines it: UIKit cannot make the scene's delegate")
    }
  }
}
