import Testing
@testable import Lifecycle

/// A run with several scenes replays whole through the log's JSON form (the harness checks it
/// when it goes away): the scene a callback names, the window verbs, the app's scene requests
/// and the back-to-front order of `scenes` the inputs' folds keep (docs/model.md §19).
@Suite struct SeveralScenesReplayTests {
  private func iPad(windowing26: Bool = false) -> Harness {
    let app = ScriptedApp()
    app.actions["NoteList"] = [
      "compose": { sim in try sim.handle(.requestSceneActivation(session: nil, activity: "compose")) },
      "back": { sim in try sim.handle(.requestSceneActivation(session: 1, activity: "reply")) },
      "close": { sim in try sim.handle(.requestSceneDestruction(2)) },
    ]
    return Harness(ios: 17, app: app) { $0.device = .ipad; $0.multipleScenes = true; $0.ipadWindowing26 = windowing26 }
  }

  @Test(arguments: [false, true])
  func aTwoWindowRunReplaysWhole(windowing26: Bool) throws {
    let h = iPad(windowing26: windowing26)
    try h.perform(.launch(url: nil), .openWindow(activity: "compose", from: 1), .focus(1), .sideBySide(1, 2), .dragDivider,
                  .act("back", arguments: []), .act("close", arguments: []), .act("compose", arguments: []), .home)
    #expect(h.sim.state.scenes.map(\.label) == ["Scene#1", "Scene#3"])
    #expect(h.sim.state.scenes.map(\.activation) == [.background, .background])
    #expect(h.sim.state.sessions.map(\.number) == [1, 3] && !h.sim.state.sessionDiscardPending)
    h.skipRemainingEvents()
  }

  @Test func anActivationRequestBringsTheSceneFrontmostAndContinuesTheActivity() throws {
    let h = iPad()
    try h.perform(.launch(url: nil), .openWindow(activity: nil, from: nil))
    h.skipRemainingEvents()
    try h.perform(.act("back", arguments: []))
    h.expectCalls(["NoteList#2.action(_:)", "SceneDelegate.sceneWillEnterForeground(_:)", "SceneDelegate.sceneDidBecomeActive(_:)",
                   "SceneDelegate.sceneWillResignActive(_:)", "SceneDelegate.stateRestorationActivity(for:)",
                   "SceneDelegate.sceneDidEnterBackground(_:)", "NoteList#2.traitCollectionDidChange(_:)",
                   "NoteList#2.traitCollectionDidChange(_:)", "SceneDelegate.scene(_:continue:)"])
    #expect(h.sim.state.frontScene?.label == "Scene#1")
    let scenes = h.allEvents.compactMap { e -> String? in
      if case let .callbackDelivered(cb, _, _, _, arguments) = e.body, cb.receiver == .sceneDelegate { return arguments.scene } else { return nil }
    }.suffix(6)
    #expect(Array(scenes) == ["Scene#1", "Scene#1", "Scene#2", "Scene#2", "Scene#2", "Scene#1"])
    h.skipRemainingEvents()
  }

  /// UIKit lets go of each activation request once it has answered it, served or denied, and
  /// the driver with it of the request's errorHandler; a destruction request has none. An app
  /// that cannot have a second window is answered too.
  @Test func eachActivationRequestIsReleasedOnceAnswered() throws {
    let h = iPad()
    try h.perform(.launch(url: nil), .act("compose", arguments: []), .act("back", arguments: []), .act("close", arguments: []),
                  .home, .launch(url: nil), .act("compose", arguments: []))
    #expect(h.app.answeredSceneRequests == [1, 2, 3])
    h.skipRemainingEvents()
    let phone = Harness(ios: 17, app: ScriptedApp())
    phone.app.actions["NoteList"] = ["compose": { sim in try sim.handle(.requestSceneActivation(session: nil, activity: nil)) }]
    try phone.perform(.launch(url: nil), .act("compose", arguments: []))
    #expect(phone.app.answeredSceneRequests == [1] && phone.sim.state.scenes.count == 1)
    phone.skipRemainingEvents()
  }
}
