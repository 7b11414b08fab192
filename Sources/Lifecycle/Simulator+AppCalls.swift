import JSON

/// An app call as the app's code makes it, before UIKit gives it an id: `handle(_:at:)`
/// records it as an `AppCall`.
public enum AppRequest: Equatable, Sendable {
  /// `work(seconds)`: blocks the main thread. A deadline inside it kills the app at the deadline.
  case work(us: Int64)
  /// `beginBackgroundTask(name, expiration)`: answered with the task's id.
  case beginBackgroundTask(name: String)
  /// `endBackgroundTask(id)`; an unknown or ended id is a no-op with a note, as UIKit only logs it.
  case endBackgroundTask(Int)
  /// `store(key, value, {protection=})`; nil removes the key. Answered with 1 when written, nil
  /// when the class's data is unavailable (before the first unlock; `complete` while locked).
  case store(key: String, value: JSONValue?, protection: DataProtection = .untilFirstUnlock)
  case log(String)
  case observe(String)
  /// `after(seconds, fn)`: answered with the id the driver keys `fn` by.
  case after(us: Int64)
  /// The app called a completion handler UIKit gave it. Calling one twice does nothing.
  case complete(Int)
  case push(String)
  case pop
  /// `present(name, opts)`; a nil style is the profile's default.
  case present(String, style: PresentationStyle?, navigation: Bool)
  case dismiss
  /// `scene:extendStateRestoration()` / `scene:completeStateRestoration()`: recorded, no effect.
  case extendStateRestoration, completeStateRestoration
  /// `hold_lock(name, {shared=})`: holding a shared lock when the app would be suspended is the 0xdead10cc kill.
  case holdLock(name: String, shared: Bool)
  /// `release_lock(name)`; a lock not held is a no-op with a note.
  case releaseLock(String)
  /// `UNUserNotificationCenter:setDelegate()`.
  case setNotificationDelegate
  /// A `continueUserActivity` restoration handler called with these controllers (labels) for `activity`.
  case restorationHandler(controllers: [String], activity: JSONValue)
  /// `BGTaskScheduler:register(id, fn)`: answered with `BGTaskRegisterResult.reply`.
  case registerBGTask(String)
  /// `BGTaskScheduler:submit{…}`: answered with `BGTaskSubmitResult.reply`.
  case submitBGTask(BGTaskRequest)
  /// `task:setTaskCompleted(ok)`.
  case setTaskCompleted(identifier: String, success: Bool)
  /// `task:updateProgress(done, total)` of a continued task.
  case updateProgress(identifier: String, done: Int64, total: Int64)
  /// `background_transfer{session=, seconds=}`: answered with the transfer's id.
  case backgroundTransfer(session: String, us: Int64)
  /// `UIApplication.shared:requestSceneSessionActivation{session=, activity=, errorHandler=}` (nil
  /// session: a new window): answered with the request's number, which keys its `errorHandler`.
  case requestSceneActivation(session: Int?, activity: String?)
  /// `UIApplication.shared:requestSceneSessionDestruction(n)`.
  case requestSceneDestruction(Int)
  /// `choose(site)`, with the outcome the host decided (forced, or drawn from the seed).
  case choose(site: String, value: Bool, forced: Bool)
  /// `UIApplication.shared:delegateWindow(site)`: answered with 1 when UIKit set the app
  /// delegate's `window` (a run without scenes), else nil. `site` names the app's code that reads it.
  case readDelegateWindow(site: String?)
  /// `UIApplication.shared:frameWindow(site)`: a window made with `UIWindow(frame:)` and made key
  /// and visible; answered with 1 when it is shown (a run without scenes), else nil.
  case makeFrameWindow(site: String?)
}

/// Why an app call was not made: the process is gone (the app's code must unwind), or
/// the call makes no sense now (a Lua error for the app).
public enum AppCallError: Error, Equatable, Sendable {
  case processEnded
  case invalid(String)
}

extension Simulator {
  /// Makes an app call from inside a job (or the app's top-level code). Returns the id UIKit
  /// gave it (`beginBackgroundTask`, `after`, `requestSceneSessionActivation`), else nil.
  @discardableResult
  public func handle(_ request: AppRequest, at: String? = nil) throws(AppCallError) -> Int? {
    guard state.process == .running || state.process == .prewarmed, depth > 0 || loadingApp else { throw .processEnded }
    do {
      switch request {
      case let .work(us):
        try work(us: us, at: at)
      case let .beginBackgroundTask(name):
        let id = state.tasksBegun + 1
        emit(.appCalled(.beginBackgroundTask(name: name, task: id), at: at))
        return id
      case let .endBackgroundTask(id):
        guard state.tasks[id: id] != nil else {
          note("endBackgroundTaskIgnored", "no background task \(id) is running: the call does nothing")
          return nil
        }
        emit(.appCalled(.endBackgroundTask(task: id), at: at))
      case let .store(key, value, protection):
        return storeIfAvailable(key: key, value: value, protection: protection, at: at)
      case let .holdLock(name, shared):
        emit(.appCalled(.holdLock(name: name, shared: shared), at: at))
      case let .releaseLock(name):
        releaseLock(name, at: at)
      case let .log(message):
        emit(.appCalled(.log(message), at: at))
      case let .observe(notification):
        emit(.appCalled(.observe(notification), at: at))
      case let .after(us):
        let id = state.aftersScheduled + 1
        emit(.appCalled(.after(us: max(us, 0), id: id), at: at))
        scheduler.scheduled(after: id, at: at)
        return id
      case let .complete(id):
        guard state.completions.contains(where: { $0.id == id }) || state.openings.softCompletions.contains(where: { $0.id == id }) else { return nil }
        emit(.appCalled(.completion(id: id), at: at))
      case let .push(cls): try pushForApp(cls, at: at)
      case .pop: try popForApp(at: at)
      case let .present(cls, style, navigation): try presentForApp(cls, style: style, navigation: navigation, at: at)
      case .dismiss: try dismissForApp(at: at)
      case .setNotificationDelegate:
        emit(.appCalled(.setNotificationDelegate, at: at))
      case let .restorationHandler(controllers, activity):
        try restoreUserActivityState(controllers, activity: activity, at: at)
      case .registerBGTask, .submitBGTask, .setTaskCompleted, .updateProgress:
        return try handleBGTaskCall(request, at: at)
      case let .backgroundTransfer(session, us):
        return startTransfer(session: session, us: max(us, 0), at: at)
      case .extendStateRestoration:
        emit(.appCalled(.extendStateRestoration, at: at))
      case .completeStateRestoration:
        emit(.appCalled(.completeStateRestoration, at: at))
      case let .choose(site, value, forced):
        emit(.appCalled(.choose(site: site, value: value, forced: forced), at: at))
      case .readDelegateWindow, .makeFrameWindow:
        return windowCall(request, at: at)
      case .requestSceneActivation, .requestSceneDestruction:
        return try requestScene(request, at: at)
      }
    } catch let error as AppCallError {
      throw error
    } catch {
      throw .processEnded
    }
    return nil
  }

  /// A window call, answered 1 in a run without scenes, else nil: UIKit sets the app delegate's
  /// window only without scenes (with scenes, each scene delegate's: UIWindowSceneDelegate.window),
  /// and a window shows only in the scene it is attached to, so one made from a frame, attached to
  /// none, shows only without scenes (TN3187).
  private func windowCall(_ request: AppRequest, at: String?) -> Int? {
    switch request {
    case let .readDelegateWindow(site): emit(.appCalled(.delegateWindow(present: !profile.scenes, site: site), at: at))
    case let .makeFrameWindow(site): emit(.appCalled(.frameWindow(shown: !profile.scenes, site: site), at: at))
    default: preconditionFailure("not a window call: \(request)")
    }
    return profile.scenes ? nil : 1
  }

  /// What `UIApplication.shared.backgroundTimeRemaining` reads, in µs (nil: "suitably large", DBL_MAX).
  public var backgroundTimeRemaining_us: Int64? {
    guard state.process == .running, state.applicationState == .background, let since = state.backgroundSince else { return nil }
    return max(0, since + profile.backgroundTaskAllowance_us - clock)
  }

  /// Blocks the main thread for `us`; a deadline that falls inside ends the process there.
  private func work(us: Int64, at: String?) throws(ProcessEnded) {
    emit(.appCalled(.work(us: us), at: at))
    let end = clock + max(us, 0)
    if let kill = inPlace({ $0.earliestKill(in: $1) }), kill.deadline < end {
      scheduler.advance(to: kill.deadline)
      terminate(kill.termination)
      throw ProcessEnded()
    }
    scheduler.advance(to: end)
  }
}
