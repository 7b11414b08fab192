import Testing
@testable import Lifecycle

/// `lifesim profile`'s content: every knob of `Profile.knobs` with its unit and value, and the
/// changes from the previous release (with the same choice of scenes).
@Suite struct ProfileReportTests {
  @Test("iOS 13 against 12: scenes, viewIsAppearing, the snapshot flips, pageSheet and the 30 s allowance")
  func ios13() throws {
    let r = try ProfileReport(ios: 13, scenes: nil)
    #expect(r.rows.map(\.name) == Profile.knobNames)
    #expect(r.previousRelease == 12 && r.previousScenes == false && r.scenes)
    #expect(r.changes.map { "\($0.name): \($0.previous ?? "") → \($0.value)" } == [
      "viewIsAppearing: false → true", "snapshotTraitFlip: false → true",
      "defaultPresentationStyle: \"fullScreen\" → \"pageSheet\"", "backgroundTaskAllowance: 180 s → 30 s",
      "bgTaskScheduler: false → true",
    ])
    let allowance = try #require(r.rows.first { $0.name == "backgroundTaskAllowance" })
    #expect(allowance.unit == "seconds" && allowance.json == .int(30) && allowance.previousJSON == .int(180))
    let style = try #require(r.rows.first { $0.name == "defaultPresentationStyle" })
    #expect(style.unit == "one of \"fullScreen\", \"pageSheet\", \"formSheet\", \"overFullScreen\"")
  }

  @Test("iOS 26 sceneless against 18 sceneless: updateProperties and the scene-required note; no scene change")
  func ios26Sceneless() throws {
    let r = try ProfileReport(ios: 26, scenes: false)
    #expect(r.previousRelease == 18 && r.previousScenes == nil && !r.scenes)
    #expect(r.changes.map(\.name) == ["updateProperties", "sceneRequiredNote"])
  }

  @Test("iOS 27 is iOS 26's knobs; with SDK 27 and no scenes only sceneLifecycleAssert changes")
  func ios27() throws {
    let r = try ProfileReport(ios: 27, scenes: false)
    #expect(r.previousRelease == 26 && r.sdk == 26 && r.changes.isEmpty)
    let rebuilt = try ProfileReport(ios: 27, scenes: false, sdk: 27)
    #expect(rebuilt.sdk == 27 && rebuilt.changes.map(\.name) == ["sceneLifecycleAssert"])
    #expect(try ProfileReport(ios: 15, scenes: nil).sdk == 15)
  }

  @Test("iOS 12 has nothing before it; only released versions are accepted")
  func oldestAndRefused() throws {
    let r = try ProfileReport(ios: 12, scenes: nil)
    #expect(r.previousRelease == nil && r.changes.isEmpty && !r.scenes)
    #expect(throws: ScenarioError("ios must be a released iOS version (12 to 18, 26, or 27), not 19")) {
      try ProfileReport(ios: 19, scenes: nil)
    }
    #expect(throws: ScenarioError("sdk must be a released iOS SDK (12 to 18, 26, or 27), not 11")) {
      try ProfileReport(ios: 27, scenes: nil, sdk: 11)
    }
  }

  @Test("an iPad's profile has the same knobs; it needs iOS 13 and scenes")
  func iPad() throws {
    let r = try ProfileReport(ios: 26, scenes: nil, device: .ipad)
    let iPhone = try ProfileReport(ios: 26, scenes: nil)
    #expect(r.device == .ipad && r.rows == iPhone.rows)
    #expect(throws: ScenarioError("device \"ipad\" needs iOS 13 or later (ios = 12)")) { try ProfileReport(ios: 12, scenes: nil, device: .ipad) }
    #expect(throws: ScenarioError("device \"ipad\" needs scenes (scenes = false)")) { try ProfileReport(ios: 17, scenes: false, device: .ipad) }
  }
}
