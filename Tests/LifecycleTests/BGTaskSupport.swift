import Testing
@testable import Lifecycle

// What the BGTaskScheduler and background-session tests share: the app calls spelled as an
// app makes them, an app that uses BGTaskScheduler, and the background launch sequences.

extension Simulator {
  /// `BGTaskScheduler:register(id, fn)` as the app calls it: true when registered.
  @discardableResult
  func appRegister(_ identifier: String) throws(ProcessEnded) -> Bool {
    do { return try handle(.registerBGTask(identifier)).flatMap(BGTaskRegisterResult.init(reply:)) == .registered }
    catch { throw ProcessEnded() }
  }

  /// `BGTaskScheduler:submit{…}`: what the system answered.
  @discardableResult
  func appSubmit(_ request: BGTaskRequest) throws(ProcessEnded) -> BGTaskSubmitResult? {
    do { return try handle(.submitBGTask(request)).flatMap(BGTaskSubmitResult.init(reply:)) } catch { throw ProcessEnded() }
  }

  func appSetTaskCompleted(_ identifier: String, _ success: Bool) throws(ProcessEnded) {
    do { try handle(.setTaskCompleted(identifier: identifier, success: success)) } catch { throw ProcessEnded() }
  }

  /// `background_transfer{session=, seconds=}`: the transfer's id.
  @discardableResult
  func appTransfer(_ session: String, us: Int64 = 0) throws(ProcessEnded) -> Int? {
    do { return try handle(.backgroundTransfer(session: session, us: us)) } catch { throw ProcessEnded() }
  }
}

enum BG {
  static let AD = "AppDelegate.", SD = "SceneDelegate.", NL = "NoteList#1.", URLS = "URLSessionDelegate."
  static let refresh = "com.example.refresh", cleanup = "com.example.cleanup"

  static func launchHandler(_ id: String) -> String { "BGTaskScheduler#\(id).launchHandler(_:)" }
  static func expiration(_ id: String) -> String { "BGTask#\(id).expirationHandler()" }

  /// The note a fetch handler gets from iOS 13 (S119).
  static let fetchDeprecatedNote =
    "note fetchDeprecated: application(_:performFetchWithCompletionHandler:) is deprecated from iOS 13: use a BGAppRefreshTask"

  /// An app declaring `refresh` and `cleanup` that registers both launch handlers in
  /// didFinishLaunching, as Apple asks (S112). `onLaunch` is both handlers' body.
  static func app(onLaunch: @escaping ScriptedApp.Handler = { _ in }) -> ScriptedApp {
    let app = ScriptedApp(layout: AppLayout(name: "Feed", roots: ["NoteList"], container: .navigation,
                                            bgTaskIdentifiers: [refresh, cleanup]))
    app.handlers["didFinishLaunchingWithOptions"] = { sim in
      try sim.appRegister(refresh)
      try sim.appRegister(cleanup)
    }
    app.handlers["launchHandler"] = onLaunch
    return app
  }

  /// The callbacks of a background launch up to the event's handler (exclusive): a scene app's
  /// willFinish → didFinish [→ didDiscardSceneSessions, after a force quit]; a sceneless app
  /// builds and shows its window, then applicationDidEnterBackground (docs/model.md §2).
  static func backgroundLaunch(_ p: PlatformUnderTest, instance: Int = 1, discarded: Bool = false) -> [String] {
    let vc = "NoteList#\(instance)."
    let finish = [AD + "application(_:willFinishLaunchingWithOptions:)", AD + "application(_:didFinishLaunchingWithOptions:)"]
    guard !p.scenes else { return finish + (discarded ? [AD + "application(_:didDiscardSceneSessions:)"] : []) }
    return [vc + "init(coder:)"] + finish + [vc + "loadView()", vc + "viewDidLoad()"] + Seen.appearing(vc, ios: p.ios)
      + [vc + "viewDidAppear(_:)", AD + "applicationDidEnterBackground(_:)"]
  }

  static func backgroundLaunchNotifications(_ p: PlatformUnderTest) -> [String] {
    ["UIApplication.didFinishLaunchingNotification"] + (p.scenes ? [] : ["UIApplication.didEnterBackgroundNotification"])
  }

  static func backgroundLaunchSystem(_ p: PlatformUnderTest) -> [String] {
    ["started background, background"] + (!p.scenes && p.ios >= 26 ? [StandardLaunch.sceneRequiredNote] : [])
  }

  /// The profiles BGTaskScheduler exists in, scene and sceneless.
  static let platforms = [PlatformUnderTest(ios: 13, scenes: true), PlatformUnderTest(ios: 17, scenes: false),
                          PlatformUnderTest(ios: 17, scenes: true), PlatformUnderTest(ios: 26, scenes: false),
                          PlatformUnderTest(ios: 26, scenes: true)]
}
