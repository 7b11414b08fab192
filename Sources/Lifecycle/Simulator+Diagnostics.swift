// The diagnostics the simulator records (`Diagnostic`): app-delegate handlers a scene app never
// hears, handlers the SDK deprecates, and a background task left open after its expiration.

extension Simulator {
  /// At a process start: each app-delegate handler the app defines that UIKit skips in a scene
  /// run (`handler_never_called`) or that the run's SDK deprecates in a sceneless run
  /// (`deprecated_in_sdk`), once per run and handler. An app whose deployment target is below
  /// iOS 13 rightly keeps both sets, so it gets neither.
  func diagnoseHandlers() {
    guard IOSRelease.hasScenes(layout.minimumIOS) else { return }
    for callback in handlersToDiagnose where driver.implements(callback, target: "AppDelegate") {
      let handler = "AppDelegate.\(callback.key)"
      guard !state.diagnostics.contains(where: { $0.handler == handler }) else { continue }
      let replacement = callback.sceneReplacement.map { "SceneDelegate.\($0.signature)" } ?? "the scene delegate"
      if profile.scenes {
        note(handler, "AppDelegate.\(callback.signature) is never called in a scene app: UIKit calls \(replacement) instead",
             code: Diagnostic.Code.handlerNeverCalled.rawValue)
      } else {
        note(handler, "AppDelegate.\(callback.signature) is deprecated in the iOS \(profile.sdk) SDK: adopt scenes and implement \(replacement)",
             code: Diagnostic.Code.deprecatedInSDK.rawValue)
      }
    }
  }

  /// After a background task's expiration handler returned: a task still not ended is
  /// `task_open_after_expiration` (iOS logs "Background task still not ended after expiration
  /// handlers were called"); with `unendedTaskAfterExpiration` = kill the app is ended at once.
  func checkTaskEnded(afterExpirationOf id: Int) throws(ProcessEnded) {
    guard state.process == .running, let task = state.tasks[id: id] else { return }
    note("taskOpenAfterExpiration",
         "background task \"\(task.name)\" (\(task.id)) is still not ended after its expiration handler returned",
         code: Diagnostic.Code.taskOpenAfterExpiration.rawValue)
    guard profile.unendedTaskAfterExpiration == .kill else { return }
    terminate(Termination(reason: .backgroundTaskExpired, code: "0x2182bad2",
                          description: "background task \"\(task.name)\" (\(task.id)) was not ended when its expiration handler returned"))
    throw ProcessEnded()
  }
}

extension Simulator {
  /// `expect_diagnostic(code)`: the run has recorded a diagnostic with this code so far. Returns
  /// whether it passed (a passing one names the code, so `--strict` accepts it).
  @discardableResult
  public func expectDiagnostic(_ code: String, at: String? = nil) -> Bool {
    let recorded = state.diagnostics
    let found = recorded.first { $0.code == code }
    let others = Array(Set(recorded.map(\.code))).sorted()
    let message = found.map { "diagnostic \(code): \($0.message)" }
      ?? "expected diagnostic \(code), but the run recorded " + (others.isEmpty ? "none" : others.joined(separator: ", "))
    emit(.expectationChecked(name: ExpectationName.diagnostic, passed: found != nil, message: message, at: at))
    return found != nil
  }
}
