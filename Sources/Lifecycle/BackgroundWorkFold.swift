import JSON

// How the events of BGTaskScheduler and background URL sessions fold into
// `LifecycleState.backgroundWork` (called from `LifecycleState.evolve`). Each hook looks only
// at the few cases that concern it.
extension BackgroundWorkState {
  mutating func evolve(input: Input) {
    if case let .power(on) = input { externalPower = on }
    // The user ended the app: its background sessions' transfers are cancelled (−999).
    if case .forceQuit = input { transfers.cancelAll() }
  }

  mutating func evolve(callback cb: Callback, target: String, handled: Bool, payload: JSONValue?, at t: Int64) {
    if cb == .launchHandler, let identifier = BGTaskLabel.identifier(of: target),
       let i = pending.firstIndex(where: { $0.request.identifier == identifier }) {
      // The system consumed the request and started the task.
      running.append(RunningBGTask(identifier: identifier, kind: pending[i].request.kind, startedAt: t))
      if pending[i].request.kind == .continued { continued.started(identifier, at: t) }
      pending.remove(at: i)
    }
    if cb == .expirationHandler, let identifier = BGTaskLabel.identifier(of: target),
       let i = running.firstIndex(where: { $0.identifier == identifier }) {
      // With no expiration handler set the task is marked complete, unsuccessful.
      if handled { running[i].expiredAt = t } else { running.remove(at: i); continued.ended(identifier) }
    }
    if cb == .didCompleteWithError, let task = payload?["task"]?.intValue {
      transfers.remove(id: Int(task))
    }
  }

  mutating func evolve(call: AppCall, at t: Int64) {
    switch call {
    case let .registerBGTask(identifier, result):
      if result == .registered { registered.append(identifier) }
    case let .submitBGTask(request, result):
      guard result == .pending else { return }
      pending.removeAll { $0.request.identifier == request.identifier }
      pending.append(PendingBGTaskRequest(request: request, dueAt: t + request.earliestBeginUs))
    case let .setTaskCompleted(identifier, _):
      running.removeAll { $0.identifier == identifier }
      continued.ended(identifier)
    case let .updateProgress(identifier, done, total):
      continued.updated(identifier, done: done, total: total, at: t)
    case let .backgroundTransfer(session, id, us):
      transfers.append(BackgroundTransfer(id: id, session: session, startedAt: t, durationUs: us))
      transfersStarted = max(transfersStarted, id)
    case .work, .beginBackgroundTask, .endBackgroundTask, .store, .log, .observe, .after, .completion, .push, .pop,
         .present, .dismiss, .holdLock, .releaseLock, .setNotificationDelegate, .restorationHandler, .extendStateRestoration,
         .completeStateRestoration, .requestSceneActivation, .requestSceneDestruction, .choose, .delegateWindow,
         .frameWindow:
      break
    }
  }

  mutating func evolve(notification name: String) {
    if name == "UIApplication.didFinishLaunchingNotification" { launchFinished = true }
  }
}
