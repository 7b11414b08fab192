import JSON
import Testing
@testable import Lifecycle

// docs/model.md §17, sceneless apps: view-controller restoration. Preservation after
// applicationDidEnterBackground, restoration between willFinish and didFinish, the pair each iOS
// version calls, what deletes the archive. Each sequence is pinned whole (the harness checks
// replay). Sources: docs/model.md's keys.

private let AD = "AppDelegate.", NL = "NoteList#", DT = "Detail#"
private let listCoder = JSONValue.object([("scroll", .int(3))])
private let detailCoder = JSONValue.object([("note", .int(42))])
private let appCoder = JSONValue.object([("version", .int(1))])

/// A notes app that opts into restoration with `pair` ("secure", "old" or both) and gives its
/// list and detail controllers restoration identifiers.
private func restoringApp(pairs: [String]) -> ScriptedApp {
  let app = ScriptedApp()
  for pair in pairs {
    let infix = pair == "secure" ? "Secure" : ""
    app.returns["shouldSave\(infix)ApplicationState"] = .bool(true)
    app.returns["shouldRestore\(infix)ApplicationState"] = .bool(true)
  }
  app.returns["willEncodeRestorableStateWith"] = appCoder
  app.returns["NoteList.encodeRestorableState"] = listCoder
  app.returns["Detail.encodeRestorableState"] = detailCoder
  app.restorationIdentifiers = ["NoteList": "list", "Detail": "detail"]
  return app
}

/// The pair a profile calls for an app implementing `pairs`.
private func pairPrefix(ios: Int, pairs: [String]) -> String { ios >= 13 && pairs.contains("secure") ? "Secure" : "" }

/// Home with Detail#1 pushed on NoteList#1: the preservation after applicationDidEnterBackground.
private func preservation(ios: Int, pair: String) -> [String] {
  [AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)",
   AD + "application(_:shouldSave\(pair)ApplicationState:)", AD + "application(_:willEncodeRestorableStateWith:)",
   NL + "1.encodeRestorableState(with:)", DT + "1.encodeRestorableState(with:)"]
    + (ios >= 13 ? Array(repeating: DT + "1.traitCollectionDidChange(_:)", count: 2) : [])
}

/// The cold launch that restores NoteList#2 with Detail#2 pushed on it, then shows Detail#2:
/// every controller is made first, then the views load down the chain, then each decodes.
private func restoringLaunch(ios: Int, pair: String) -> [String] {
  [NL + "2.init(coder:)", AD + "application(_:willFinishLaunchingWithOptions:)",
   AD + "application(_:shouldRestore\(pair)ApplicationState:)",
   AD + "application(_:viewControllerWithRestorationIdentifierPath:coder:)",
   AD + "application(_:viewControllerWithRestorationIdentifierPath:coder:)", DT + "2.init(coder:)",
   NL + "2.loadView()", NL + "2.viewDidLoad()", DT + "2.loadView()", DT + "2.viewDidLoad()",
   NL + "2.decodeRestorableState(with:)", DT + "2.decodeRestorableState(with:)",
   AD + "application(_:didDecodeRestorableStateWith:)", NL + "2.applicationFinishedRestoringState()",
   DT + "2.applicationFinishedRestoringState()", AD + "application(_:didFinishLaunchingWithOptions:)"]
    + Seen.appearing(DT + "2.", ios: ios) + [AD + "applicationDidBecomeActive(_:)", DT + "2.viewDidAppear(_:)"]
}

@Suite struct ControllerRestorationTests {
  /// Launch, push Detail, Home: the preservation is claimed; returns the harness.
  private func preserved(ios: Int, app: ScriptedApp, pair: String, knobs: (inout Profile) -> Void = { _ in }) throws -> Harness {
    let h = Harness(ios: ios, scenes: false, app: app, knobs: knobs)
    try h.launch()
    try h.perform(.push("Detail"))
    h.expectCalls(Seen.pushed(DT + "1.", over: NL + "1.", ios: ios))
    try h.perform(.home)
    h.expectCalls(preservation(ios: ios, pair: pair))
    h.expectNotifications(Posted.home(scenes: false))
    h.expectSystem(["suspended"])
    return h
  }

  @Test("§17 preservation and restoration after jetsam: iOS 12 calls the old pair, iOS ≥ 13 the secure pair (T7, T103, S105, S106, S107, S108)",
        arguments: [12, 13, 17, 26])
  func roundTrip(ios: Int) throws {
    let pairs = ios == 12 ? ["old"] : ["secure"]
    let pair = pairPrefix(ios: ios, pairs: pairs)
    let h = try preserved(ios: ios, app: restoringApp(pairs: pairs), pair: pair)
    let archive = try #require(h.sim.state.restorationArchive)
    #expect(archive.appCoder == appCoder)
    #expect(archive.controllers.map(\.path) == [["list"], ["detail"]])
    #expect(archive.controllers.map(\.coder) == [listCoder, detailCoder])
    try h.perform(.memoryPressure, .launch(url: nil))
    h.expectCalls(restoringLaunch(ios: ios, pair: pair))
    h.expectNotifications(StandardLaunch.scenelessNotifications)
    h.expectSystem(["terminated jetsam: vm-pageshortage: the system reclaimed the suspended app's memory"]
                   + StandardLaunch.system(h.sim.profile))
    #expect(h.payload(of: .viewControllerWithRestorationIdentifierPath)
            == .object([("path", .array([.string("detail")])), ("coder", detailCoder)]))
    #expect(h.payload(of: .decodeRestorableState) == .object([("coder", detailCoder)]))
    #expect(h.payload(of: .didDecodeRestorableStateWith) == .object([("coder", appCoder)]))
    #expect(h.sim.state.frontWindow?.tabs == [[3, 4]])
  }

  @Test("§17 both pairs implemented: iOS ≥ 13 calls only the secure pair; only the old pair: still called, with a deprecation note (S107, S108)")
  func whichPair() throws {
    let both = try preserved(ios: 17, app: restoringApp(pairs: ["old", "secure"]), pair: "Secure")
    #expect(both.sim.state.restorationArchive != nil)
    let h = Harness(ios: 17, scenes: false, app: restoringApp(pairs: ["old"]))
    try h.launch()
    try h.perform(.home)
    h.expectCalls([AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)",
                   AD + "application(_:shouldSaveApplicationState:)", AD + "application(_:willEncodeRestorableStateWith:)",
                   NL + "1.encodeRestorableState(with:)", NL + "1.traitCollectionDidChange(_:)", NL + "1.traitCollectionDidChange(_:)"])
    h.expectNotifications(Posted.home(scenes: false))
    h.expectSystem(["note restorationPairDeprecated: application(_:shouldSaveApplicationState:) and application(_:shouldRestoreApplicationState:) are deprecated from iOS 13.2; UIKit still calls them when the secure pair is missing",
                    "suspended"])
  }

  @Test("§17 iOS 12 has no secure pair: an app implementing only it preserves nothing (S107)")
  func secureOnlyOn12() throws {
    let h = Harness(ios: 12, scenes: false, app: restoringApp(pairs: ["secure"]))
    try h.launch()
    try h.perform(.home)
    h.expectHome(visible: [])
    #expect(h.sim.state.restorationArchive == nil)
  }

  @Test("§17 should-save false writes nothing; should-restore false restores nothing, and the launch goes on (S105, S107)")
  func declined() throws {
    let app = restoringApp(pairs: ["secure"])
    app.returns["shouldSaveSecureApplicationState"] = .bool(false)
    let h = Harness(ios: 17, scenes: false, app: app)
    try h.launch()
    try h.perform(.home)
    h.expectCalls([AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)",
                   AD + "application(_:shouldSaveSecureApplicationState:)",
                   NL + "1.traitCollectionDidChange(_:)", NL + "1.traitCollectionDidChange(_:)"])
    h.expectNotifications(Posted.home(scenes: false))
    h.expectSystem(["suspended"])
    #expect(h.sim.state.restorationArchive == nil)
    app.returns["shouldSaveSecureApplicationState"] = .bool(true)
    app.returns["shouldRestoreSecureApplicationState"] = .bool(false)
    try h.perform(.launch(url: nil), .home)
    h.expectCalls([AD + "applicationWillEnterForeground(_:)", AD + "applicationDidBecomeActive(_:)",
                   AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)",
                   AD + "application(_:shouldSaveSecureApplicationState:)", AD + "application(_:willEncodeRestorableStateWith:)",
                   NL + "1.encodeRestorableState(with:)", NL + "1.traitCollectionDidChange(_:)", NL + "1.traitCollectionDidChange(_:)"])
    h.expectNotifications(Posted.back(scenes: false) + Posted.home(scenes: false))
    h.expectSystem(["resumed", "suspended"])
    #expect(h.sim.state.restorationArchive != nil)
    try h.perform(.memoryPressure, .launch(url: nil))
    var launch = StandardLaunch.scenelessCalls(ios: 17, roots: [NL + "2"])
    launch.insert(AD + "application(_:shouldRestoreSecureApplicationState:)", at: 2)
    h.expectCalls(launch)
    h.expectNotifications(StandardLaunch.scenelessNotifications)
    h.expectSystem(["terminated jetsam: vm-pageshortage: the system reclaimed the suspended app's memory",
                    "started foreground, inactive"])
  }

  @Test("§17 a reboot keeps the archive: the first launch after the first unlock restores (S105, §14)")
  func rebootKeepsTheArchive() throws {
    let h = try preserved(ios: 17, app: restoringApp(pairs: ["secure"]), pair: "Secure")
    try h.perform(.reboot, .unlock, .launch(url: nil))
    h.expectCalls(restoringLaunch(ios: 17, pair: "Secure"))
    h.expectNotifications(StandardLaunch.scenelessNotifications)
    h.expectSystem(["terminated reboot: the device restarted", "started foreground, inactive"])
  }

  @Test("§17 the path method's class name makes a pushed controller of that class; a root is restored in place whatever it names (S105, T103)")
  func pathMethodChoosesTheClass() throws {
    let app = restoringApp(pairs: ["secure"])
    let h = try preserved(ios: 17, app: app, pair: "Secure")
    app.returns["viewControllerWithRestorationIdentifierPath"] = .string("Sheet")
    try h.perform(.memoryPressure, .launch(url: nil))
    h.expectCalls(restoringLaunch(ios: 17, pair: "Secure").map { $0.replacing("Detail#2.", with: "Sheet#1.") })
    h.expectNotifications(StandardLaunch.scenelessNotifications)
    h.expectSystem(["terminated jetsam: vm-pageshortage: the system reclaimed the suspended app's memory", "started foreground, inactive"])
  }

  @Test("§17 a force quit deletes the archive: the next launch restores nothing (S109); knob legacyArchiveSurvivesForceQuit keeps it",
        arguments: [false, true])
  func forceQuit(keep: Bool) throws {
    let h = try preserved(ios: 17, app: restoringApp(pairs: ["secure"]), pair: "Secure") { $0.legacyArchiveSurvivesForceQuit = keep }
    try h.perform(.forceQuit, .launch(url: nil))
    if keep {
      h.expectCalls(restoringLaunch(ios: 17, pair: "Secure"))
    } else {
      h.expectCalls(StandardLaunch.scenelessCalls(ios: 17, roots: [NL + "2"]))
      #expect(h.restorationChanges.last == .archiveDeleted(why: "force quit"))
    }
    h.expectNotifications(StandardLaunch.scenelessNotifications)
    h.expectSystem(["terminated user: force quit from the app switcher while suspended", "started foreground, inactive"])
  }

  @Test("§17 restoration runs under the launch watchdog: a decode blocking 25 s is killed at 20 s and the archive is deleted (S26, S109)")
  func killDuringLaunch() throws {
    let app = restoringApp(pairs: ["secure"])
    let h = try preserved(ios: 17, app: app, pair: "Secure")
    app.handlers["Detail.decodeRestorableState"] = { sim in try sim.work(us: 25_000_000) }
    try h.perform(.memoryPressure, .launch(url: nil))
    h.expectCalls(Array(restoringLaunch(ios: 17, pair: "Secure").prefix(12)))
    h.expectSystem(["terminated jetsam: vm-pageshortage: the system reclaimed the suspended app's memory",
                    "started foreground, inactive",
                    "terminated watchdog 0x8badf00d: scene-create watchdog transgression: exhausted real (wall clock) time allowance of 20.00 seconds"])
    #expect(h.restorationChanges.last == .archiveDeleted(why: "the process ended before its launch finished"))
    try h.perform(.launch(url: nil))
    h.expectStandardLaunch(instance: 3)
  }

  @Test("§17 a controller takes part only if it and its ancestors have a restorationIdentifier: a modal over a list without one is skipped (S106)")
  func ancestorsRule() throws {
    let app = restoringApp(pairs: ["secure"])
    app.restorationIdentifiers = ["Sheet": "sheet"]
    let h = Harness(ios: 17, scenes: false, app: app)
    try h.launch()
    try h.perform(.present("Sheet", style: .fullScreen, navigation: false), .home)
    h.expectCalls(Seen.presentedFullScreen("Sheet#1.", over: NL + "1.", ios: 17)
                  + [AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)",
                     AD + "application(_:shouldSaveSecureApplicationState:)", AD + "application(_:willEncodeRestorableStateWith:)",
                     "Sheet#1.traitCollectionDidChange(_:)", "Sheet#1.traitCollectionDidChange(_:)"])
    h.expectNotifications(Posted.home(scenes: false))
    h.expectSystem(["suspended"])
    #expect(h.sim.state.restorationArchive?.controllers == [])
    // With the list identified, the modal is preserved with its path from the list.
    app.restorationIdentifiers["NoteList"] = "list"
    try h.perform(.launch(url: nil), .home)
    h.expectCalls([AD + "applicationWillEnterForeground(_:)", AD + "applicationDidBecomeActive(_:)",
                   AD + "applicationWillResignActive(_:)", AD + "applicationDidEnterBackground(_:)",
                   AD + "application(_:shouldSaveSecureApplicationState:)", AD + "application(_:willEncodeRestorableStateWith:)",
                   NL + "1.encodeRestorableState(with:)", "Sheet#1.encodeRestorableState(with:)",
                   "Sheet#1.traitCollectionDidChange(_:)", "Sheet#1.traitCollectionDidChange(_:)"])
    h.expectNotifications(Posted.back(scenes: false) + Posted.home(scenes: false))
    h.expectSystem(["resumed", "suspended"])
    #expect(h.sim.state.restorationArchive?.controllers.map(\.path) == [["list"], ["list", "sheet"]])
  }

  @Test("§17 scene apps get no view-controller restoration; knob legacyRestorationInSceneApps gives them the app-level calls (S104, T107)",
        arguments: [false, true])
  func sceneApps(knob: Bool) throws {
    let h = Harness(ios: 17, app: restoringApp(pairs: ["secure"])) { $0.legacyRestorationInSceneApps = knob }
    try h.launch()
    try h.perform(.home)
    let SD = "SceneDelegate."
    h.expectCalls([SD + "sceneWillResignActive(_:)", SD + "stateRestorationActivity(for:)", SD + "sceneDidEnterBackground(_:)"]
                  + (knob ? [AD + "application(_:shouldSaveSecureApplicationState:)", AD + "application(_:willEncodeRestorableStateWith:)",
                             NL + "1.encodeRestorableState(with:)"] : [])
                  + [NL + "1.traitCollectionDidChange(_:)", NL + "1.traitCollectionDidChange(_:)"])
    h.expectNotifications(Posted.home(scenes: true))
    h.expectSystem(["suspended"])
    try h.perform(.memoryPressure, .launch(url: nil))
    var launch = StandardLaunch.sceneCalls(ios: 17, newSession: false, instance: 2)
    if knob {
      // No window exists before didFinish in a scene app: only the application's coder comes back.
      launch.insert(contentsOf: [AD + "application(_:shouldRestoreSecureApplicationState:)",
                                 AD + "application(_:didDecodeRestorableStateWith:)"], at: 1)
    }
    h.expectCalls(launch)
    h.expectNotifications(StandardLaunch.sceneNotifications)
    h.expectSystem(["terminated jetsam: vm-pageshortage: the system reclaimed the suspended app's memory",
                    "started foreground, background"])
  }
}
