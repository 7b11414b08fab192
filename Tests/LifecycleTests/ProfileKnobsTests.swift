import JSON
import Foundation
import Testing
@testable import Lifecycle

/// `Profile.knobs` is the one declaration of the knobs: the profile's fields, its header
/// record (bytes pinned), its decoding and the docs' knob table all follow it.
@Suite struct ProfileKnobsTests {
  @Test("the header records iOS 17's defaults with the same keys, order and bytes as before the table")
  func headerBytesIOS17() {
    #expect(Profile(ios: 17).json.canonicalText == #"{"ios":17,"scenes":true,"launchAppearanceOrder":"willAppearBeforeActive","sceneLaunchAppearanceOrder":"willAppearBeforeForeground","viewIsAppearing":true,"updateProperties":false,"snapshotTraitFlip":true,"prewarming":true,"prewarmRunsDidFinish":"never","defaultPresentationStyle":"pageSheet","resumeBackgroundEventCallsDidEnterBackground":true,"sceneRequiredNote":false,"notificationCenterDoubleActivation":true,"backgroundTaskAllowance_us":30000000,"expirationLead_us":5000000,"unendedTaskAfterExpiration":"note","didEnterBackgroundBudget_us":5000000,"willTerminateBudget_us":5000000,"launchWatchdog_us":20000000,"completionHandlerBudget_us":30000000,"foregroundHangLimit_us":10000000,"protectedDataLockDelay_us":10000000,"instructionLimit":50000000,"memoryLimitBytes":67108864,"queuedTimeChangeDelivery":"nextForeground","debuggerAttached":false,"coldNotificationResponse":"both","notificationResponsePlacement":"beforeDidBecomeActive","quickActionPlacement":"beforeDidBecomeActive","continueActivityFails":false,"handoffTransferDelay_us":500000,"bgTaskScheduler":true,"backgroundRefreshStatus":"available","bgRefreshAllowance_us":30000000,"bgProcessingAllowance_us":300000000,"bgTaskGrace_us":1000000,"urlSessionCompletionAllowance_us":30000000,"processingRunsAfterForceQuit":false,"restoreInteractionMinIOS":15,"restorationRequestPlacement":"beforeDidEnterBackground","restoreInteractionWhenNil":false,"forceQuitKeepsRestoration":false,"legacyArchiveSurvivesForceQuit":false,"legacyRestorationInSceneApps":false}"#)
  }

  @Test("the header records iOS 12's defaults (sceneless, older values) with the same bytes")
  func headerBytesIOS12() {
    #expect(Profile(ios: 12).json.canonicalText == #"{"ios":12,"scenes":false,"launchAppearanceOrder":"willAppearBeforeActive","sceneLaunchAppearanceOrder":"willAppearBeforeForeground","viewIsAppearing":false,"updateProperties":false,"snapshotTraitFlip":false,"prewarming":false,"prewarmRunsDidFinish":"never","defaultPresentationStyle":"fullScreen","resumeBackgroundEventCallsDidEnterBackground":true,"sceneRequiredNote":false,"notificationCenterDoubleActivation":true,"backgroundTaskAllowance_us":180000000,"expirationLead_us":5000000,"unendedTaskAfterExpiration":"note","didEnterBackgroundBudget_us":5000000,"willTerminateBudget_us":5000000,"launchWatchdog_us":20000000,"completionHandlerBudget_us":30000000,"foregroundHangLimit_us":10000000,"protectedDataLockDelay_us":10000000,"instructionLimit":50000000,"memoryLimitBytes":67108864,"queuedTimeChangeDelivery":"nextForeground","debuggerAttached":false,"coldNotificationResponse":"both","notificationResponsePlacement":"beforeDidBecomeActive","quickActionPlacement":"beforeDidBecomeActive","continueActivityFails":false,"handoffTransferDelay_us":500000,"bgTaskScheduler":false,"backgroundRefreshStatus":"available","bgRefreshAllowance_us":30000000,"bgProcessingAllowance_us":300000000,"bgTaskGrace_us":1000000,"urlSessionCompletionAllowance_us":30000000,"processingRunsAfterForceQuit":false,"restoreInteractionMinIOS":15,"restorationRequestPlacement":"beforeDidEnterBackground","restoreInteractionWhenNil":false,"forceQuitKeepsRestoration":false,"legacyArchiveSurvivesForceQuit":false,"legacyRestorationInSceneApps":false}"#)
  }

  @Test("the header names the SDK and sceneLifecycleAssert only where a run could not be written before them, and reads them back")
  func headerSDK() throws {
    let ios26 = Profile(ios: 26, scenes: false).json
    #expect(ios26["sdk"] == nil && ios26["sceneLifecycleAssert"] == nil)
    #expect(Profile(ios: 15, sdk: 15).json["sdk"] == nil)
    #expect(Profile(ios: 15, sdk: 26).json["sdk"] == .int(26))
    #expect(Profile(ios: 27).json["sdk"] == .int(26) && Profile(ios: 27).json["sceneLifecycleAssert"] == nil)
    let mandate = Profile(ios: 27, scenes: false, sdk: 27)
    #expect(mandate.json.canonicalText.hasPrefix(#"{"ios":27,"scenes":false,"sdk":27,"launchAppearanceOrder""#))
    #expect(mandate.json["sceneLifecycleAssert"] == .bool(true))
    #expect(try Profile(json: mandate.json) == mandate)
    #expect(try Profile(json: ios26) == Profile(ios: 26, scenes: false))
    #expect(try Profile(json: Profile(ios: 15, sdk: 27).json).sdk == 27)
  }

  @Test("a header's sdk is checked like any value read from a file: a released version, else the log is refused")
  func hostileHeaderSDK() {
    guard case let .object(fields) = Profile(ios: 17).json else {
      Issue.record("the profile is not an object")
      return
    }
    for bad: JSONValue in [.int(11), .int(19), .int(Int64.max), .int(Int64.min), .string("27"), .double(26.5), .null] {
      let header = JSONValue.object(fields + [("sdk", bad)])
      let refusal = "profile: sdk must be a released iOS SDK (12 to 18, 26, or 27), not \(bad.canonicalText)"
      #expect(throws: Profile.KnobError(description: refusal)) { try Profile(json: header) }
    }
  }

  @Test("every stored knob field is in the table, and the table has nothing else")
  func fieldsMatchTable() {
    let fields = Mirror(reflecting: Profile()).children.compactMap(\.label).filter { !["ios", "scenes", "sdk", "device", "multipleScenes", "sceneManifest", "forcedChoices"].contains($0) }
    #expect(fields == Profile.knobs.map(\.recordKey))
  }

  /// The lines of `docs/NAME` from the table whose header is `header` to its end, or nil.
  private func docTable(_ name: String, header: String) throws -> [String]? {
    let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("docs/" + name)
    let lines = try String(contentsOf: docs, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.firstIndex(of: header) else { return nil }
    return Array(lines[start...].prefix { $0.hasPrefix("|") })
  }

  @Test("docs/lua-api.md's knob table is exactly the table's rows, in order; docs/model.md's per-release table is lifesim profile's values and its sources table names every knob")
  func docTable() throws {
    let rows = try docTable("lua-api.md", header: "| knob | default | what it decides |")
    #expect(rows.map { Array($0.dropFirst(2)) } == Profile.knobs.map(\.docRow))
    let releases = ProfileReport.releaseTable()
    let documented = try docTable("model.md", header: releases[0])
    #expect(documented == releases, "docs/model.md §13 should hold:\n\(releases.joined(separator: "\n"))")
    let sourced = try docTable("model.md", header: "| knob | default | source |")?.dropFirst(2)
      .map { $0.split(separator: "`").dropFirst().first.map(String.init) ?? $0 }
    #expect(sourced.map(Set.init) == Set(Profile.knobNames))
  }

  @Test("a header from before notificationCenterDoubleActivation decodes with the single pair; other knobs are required")
  func olderHeaders() throws {
    guard case let .object(fields) = Profile(ios: 17).json else {
      Issue.record("the profile is not an object")
      return
    }
    let old = try Profile(json: .object(fields.filter { $0.0 != "notificationCenterDoubleActivation" }))
    #expect(old.notificationCenterDoubleActivation == false)
    #expect(old.backgroundTaskAllowance_us == 30_000_000)
    #expect(throws: Profile.KnobError(description: "profile: missing expirationLead_us")) {
      try Profile(json: .object(fields.filter { $0.0 != "expirationLead_us" }))
    }
    #expect(throws: Profile.KnobError(description: "profile: bad prewarmRunsDidFinish")) {
      try Profile(json: .object(fields.map { $0.0 == "prewarmRunsDidFinish" ? ($0.0, .string("sometimes")) : $0 }))
    }
  }

  @Test("a scenario's override is checked by the knob's unit and lands in the header in µs")
  func overrides() throws {
    var p = Profile(ios: 17)
    try p.set("backgroundTaskAllowance", .number(40))
    #expect(p.backgroundTaskAllowance_us == 40_000_000)
    try p.set("launchAppearanceOrder", .string("allVCAfterActive"))
    #expect(p.launchAppearanceOrder == .allVCAfterActive)
    #expect(throws: Profile.KnobError(description: "knob instructionLimit takes a whole number from 1000 to 1000000000000")) {
      try p.set("instructionLimit", .number(1.5))
    }
    #expect(throws: Profile.KnobError(description: "knob prewarming takes true or false")) { try p.set("prewarming", .number(1)) }
    #expect(throws: Profile.KnobError(description: "unknown knob prewarmin (did you mean prewarming?)")) {
      try p.set("prewarmin", .bool(true))
    }
    #expect(try Profile(json: p.json) == p)
  }
}
