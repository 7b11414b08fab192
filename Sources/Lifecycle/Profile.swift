import JSON

/// The platform profile: an iOS version, whether the app uses scenes, and
/// every number and ordering choice of the model (docs/model.md §13), each a named knob.
///
/// A log's header records the whole profile, so a log replays the same way
/// after defaults change. Durations are integer microseconds (`…_us`); a
/// scenario overrides them in seconds: `knobs = { backgroundTaskAllowance = 40 }`.
public struct Profile: Equatable, Sendable {
  /// Where the root's appearance falls in a sceneless cold launch (docs/model.md §2).
  public enum LaunchAppearanceOrder: String, Sendable, CaseIterable {
    /// didFinish{viewDidLoad} → viewWillAppear … layout → didBecomeActive → viewDidAppear (default).
    case willAppearBeforeActive
    /// Every appearance callback, viewDidAppear included, before didBecomeActive (T9).
    case allVCBeforeActive
    /// viewDidLoad, then didBecomeActive, then the appearance callbacks.
    case allVCAfterActive
  }

  /// Where the root's appearance falls in a scene cold launch (docs/model.md §2).
  public enum SceneLaunchAppearanceOrder: String, Sendable, CaseIterable {
    /// willConnectTo → viewDidLoad … layout → sceneWillEnterForeground → sceneDidBecomeActive → viewDidAppear (default).
    case willAppearBeforeForeground
    /// willConnectTo → viewDidLoad → sceneWillEnterForeground → sceneDidBecomeActive → viewWillAppear … viewDidAppear (S4, T26).
    case allVCAfterActive
  }

  /// Whether a prewarmed process ran `didFinishLaunching` (docs/model.md §2).
  public enum PrewarmRunsDidFinish: String, Sendable, CaseIterable { case never, sceneAppsOnly, always }

  /// When a time change queued for a suspended app is delivered (docs/model.md §14).
  public enum QueuedTimeChangeDelivery: String, Sendable, CaseIterable {
    /// At the next resume into the foreground, before its will-enter-foreground callbacks (default).
    case nextForeground
    /// At the next resume, in the background too.
    case nextRun
  }

  /// What a background task still open after its expiration handler returned leads to.
  public enum UnendedTaskAfterExpiration: String, Sendable, CaseIterable {
    /// The `task_open_after_expiration` diagnostic; the allowance's end still kills (default).
    case note
    /// The diagnostic, then the `background_task_expired` termination at once.
    case kill
  }

  public var ios: Int
  public var scenes: Bool
  /// The SDK the app is built with (`app { sdk = N }`, `--sdk N`): one of `releases`. UIKit
  /// decides some rules by it rather than by `ios` (docs/model.md §13, the scene mandate).
  public var sdk: Int
  /// The device (`scenario { device = "ipad" }`): an iPad shows several windows of one app, each
  /// a scene (docs/model.md §19). The header records it only on iPad.
  public var device: Device = .iphone
  /// Info.plist's `UIApplicationSupportsMultipleScenes` (`app { multipleScenes = true }`): the app
  /// may have more than one scene connected at once. The header records it only when true.
  public var multipleScenes = false
  /// The app's declared scene manifest and configuration method (`app { sceneManifest = … }`),
  /// where `scenes` alone would not give them (nil: the shorthand's); the header records it then.
  public var sceneManifest: SceneManifestShape?
  /// The `choose(site)` outcomes the run fixes (`--choose`); the header records them only when set.
  public var forcedChoices = ForcedChoices()
  // The knobs, each documented in `Profile.knobs`, the one declaration of every knob (its
  // name, unit, default per iOS version and doc; a test holds the two lists equal). Each
  // starts at a placeholder that `init` replaces with its default for the iOS version.
  public var launchAppearanceOrder: LaunchAppearanceOrder = .willAppearBeforeActive
  public var sceneLaunchAppearanceOrder: SceneLaunchAppearanceOrder = .willAppearBeforeForeground
  public var viewIsAppearing = false
  public var updateProperties = false
  public var snapshotTraitFlip = false
  public var prewarming = false
  public var prewarmRunsDidFinish: PrewarmRunsDidFinish = .never
  public var defaultPresentationStyle: PresentationStyle = .fullScreen
  public var resumeBackgroundEventCallsDidEnterBackground = false
  public var sceneRequiredNote = false
  public var sceneLifecycleAssert = false
  public var notificationCenterDoubleActivation = false
  public var backgroundTaskAllowance_us: Int64 = 0
  public var expirationLead_us: Int64 = 0
  public var unendedTaskAfterExpiration: UnendedTaskAfterExpiration = .note
  public var didEnterBackgroundBudget_us: Int64 = 0
  public var willTerminateBudget_us: Int64 = 0
  public var launchWatchdog_us: Int64 = 0
  public var completionHandlerBudget_us: Int64 = 0
  public var foregroundHangLimit_us: Int64 = 0
  public var protectedDataLockDelay_us: Int64 = 0
  public var instructionLimit: Int64 = 0
  public var memoryLimitBytes: Int64 = 0
  public var queuedTimeChangeDelivery: QueuedTimeChangeDelivery = .nextForeground
  public var debuggerAttached = false
  public var coldNotificationResponse: ColdNotificationResponse = .both
  public var notificationResponsePlacement: OpeningPlacement = .beforeDidBecomeActive
  public var quickActionPlacement: OpeningPlacement = .beforeDidBecomeActive
  public var continueActivityFails = false
  public var handoffTransferDelay_us: Int64 = 0
  public var bgTaskScheduler = false
  public var backgroundRefreshStatus: BackgroundRefreshStatus = .available
  public var bgRefreshAllowance_us: Int64 = 0
  public var bgProcessingAllowance_us: Int64 = 0
  public var bgTaskGrace_us: Int64 = 0
  public var urlSessionCompletionAllowance_us: Int64 = 0
  public var processingRunsAfterForceQuit = false
  public var ipadWindowing26 = false
  public var continuedNoProgressLimit_us: Int64 = 0
  public var restoreInteractionMinIOS: Int64 = 0
  public var restorationRequestPlacement: RestorationRequestPlacement = .beforeDidEnterBackground
  public var restoreInteractionWhenNil = false
  public var forceQuitKeepsRestoration = false
  public var legacyArchiveSurvivesForceQuit = false
  public var legacyRestorationInSceneApps = false

  /// BGContinuedProcessingTask exists (iOS 26, S136): `submit{ kind = "continued" }`, `cancel_task`.
  /// A rule of the version, not a knob: no log before it could have used one.
  public var continuedProcessingTasks: Bool { ios >= IOSRelease.firstWithContinuedProcessing }

  /// The defaults for iOS `ios` and an app built with `sdk`: `ios` any of
  /// `IOSRelease.headerVersions`, which a log header may name; a scenario may ask only for a
  /// release (`IOSRelease.versions`). `scenes` defaults to whether the release has them, `sdk` to
  /// `IOSRelease.defaultSDK(ios:)`; `sdk` is a release.
  public init(ios: Int = IOSRelease.defaultVersion, scenes: Bool? = nil, sdk: Int? = nil) {
    precondition(IOSRelease.headerVersions.contains(ios), "ios out of range")
    precondition(sdk.map(IOSRelease.versions.contains) ?? true, "sdk out of range")
    self.ios = ios
    self.scenes = scenes ?? IOSRelease.hasScenes(ios)
    self.sdk = sdk ?? IOSRelease.defaultSDK(ios: ios)
    for knob in Self.knobs {
      guard knob.write(&self, knob.defaultValue(ios, self.sdk)) else {
        preconditionFailure("knob \(knob.name): its default does not fit its field")
      }
    }
  }

  // MARK: - Knobs by name

  /// A knob's value as a scenario writes it.
  public enum KnobValue: Sendable, Equatable {
    case number(Double)
    case bool(Bool)
    case string(String)
  }

  /// Every knob name a scenario may override, in the order the header records them.
  public static var knobNames: [String] { knobs.map(\.name) }

  /// Why a knob override was refused; the message names the knob and what it accepts.
  public struct KnobError: Error, Equatable, CustomStringConvertible {
    public let description: String
  }

  /// Applies one override (`knobs = { name = value }`); durations are in seconds.
  public mutating func set(_ name: String, _ value: KnobValue) throws(KnobError) {
    guard let knob = Self.knobs.first(where: { $0.name == name }) else {
      let near = nearest(name, in: Self.knobNames).map { " (did you mean \($0)?)" } ?? ""
      throw KnobError(description: "unknown knob \(name)\(near)")
    }
    guard knob.write(&self, try knob.recordValue(value)) else {
      preconditionFailure("knob \(name): a checked value does not fit its field")
    }
  }

  // MARK: - The header's record

  /// The whole profile as the log header records it: ios, scenes, sdk, then every knob in table
  /// order. The sdk is left out where a lifesim that had no SDK axis would have run it (iOS 26 or
  /// older, the default SDK), and so is a knob at the value its absence reads as
  /// (`KnobSpec.omittedAtMissingValue`): those runs' logs keep the bytes they always had.
  public var json: JSONValue {
    let sdkField: [(String, JSONValue)] = ios < IOSRelease.firstRecordingSDK && sdk == IOSRelease.defaultSDK(ios: ios)
      ? [] : [("sdk", .int(Int64(sdk)))]
    let knobFields = Self.knobs.compactMap { knob -> (String, JSONValue)? in
      let value = knob.read(self)
      return knob.omittedAtMissingValue && value == knob.valueWhenMissing ? nil : (knob.recordKey, value)
    }
    let deviceFields: [(String, JSONValue)] = (device == .iphone ? [] : [("device", .string(device.rawValue))])
      + (multipleScenes ? [("multipleScenes", .bool(true))] : [])
    return .object([("ios", .int(Int64(ios))), ("scenes", .bool(scenes))] + sdkField + deviceFields + sceneManifestFields + knobFields + forcedChoiceFields)
  }

  /// This profile for an app built with `sdk` (`replay --app` with another SDK): a knob at its
  /// default for the old SDK takes its default for the new one; a value a scenario set is kept.
  public func building(with sdk: Int) -> Profile {
    var rebuilt = self
    rebuilt.sdk = sdk
    for knob in Self.knobs where knob.read(self) == knob.defaultValue(ios, self.sdk) {
      _ = knob.write(&rebuilt, knob.defaultValue(ios, sdk))
    }
    return rebuilt
  }

  /// What a header's profile `record` means for `key` when it leaves it out because it is at
  /// the value its absence reads as: the SDK (the default for the recorded iOS) and the knobs
  /// recorded only when set. Nil for any other key: its absence means nothing is known.
  public static func implicitValue(of key: String, in record: JSONValue) -> JSONValue? {
    if key == "sdk" { return record["ios"]?.intValue.map { .int(Int64(IOSRelease.defaultSDK(ios: Int(clamping: $0)))) } }
    return knobs.first { $0.recordKey == key && $0.omittedAtMissingValue }?.valueWhenMissing
  }

  /// Rebuilds a profile from a header's record. A knob newer than the log takes the value
  /// that reproduces how the log was written (`KnobSpec.valueWhenMissing`).
  public init(json: JSONValue) throws(KnobError) {
    guard let ios = json["ios"]?.intValue.map({ Int($0) }) else { throw KnobError(description: "profile: missing ios") }
    let versions = IOSRelease.headerVersions
    guard versions.contains(ios) else {
      throw KnobError(description: "profile: ios is \(ios), outside its range \(versions.lowerBound)…\(versions.upperBound)")
    }
    guard let scenes = json["scenes"]?.boolValue else { throw KnobError(description: "profile: missing scenes") }
    guard !scenes || IOSRelease.hasScenes(ios) else { throw KnobError(description: "profile: scenes is true on iOS \(ios), which has none") }
    let sdk = try json["sdk"].map { value throws(KnobError) in
      guard let sdk = value.intValue.map({ Int(clamping: $0) }), IOSRelease.versions.contains(sdk) else {
        throw KnobError(description: IOSRelease.Refusal("profile: sdk", shown: value.canonicalText, as: .sdk).description)
      }
      return sdk
    }
    self.init(ios: ios, scenes: scenes, sdk: sdk)
    try readDevice(json)
    try readSceneManifest(json)
    try readForcedChoices(json)
    for knob in Self.knobs {
      guard let value = json[knob.recordKey] ?? knob.valueWhenMissing, knob.write(&self, value) else {
        if case .choice = knob.unit { throw KnobError(description: "profile: bad \(knob.recordKey)") }
        throw KnobError(description: "profile: missing \(knob.recordKey)")
      }
      if let range = knob.recordRange, let n = value.intValue, !range.contains(n) {
        throw KnobError(description: "profile: knob \(knob.recordKey) is \(n), outside its range \(range.lowerBound)…\(range.upperBound)")
      }
    }
  }
}

extension Profile {
  /// The devices a scenario may name.
  public enum Device: String, Sendable, CaseIterable { case iphone, ipad }

  /// Why an iPad run is impossible on this profile (iOS before 13 or no scenes), or nil.
  public var deviceProblem: String? {
    guard device == .ipad else { return nil }
    if !IOSRelease.hasScenes(ios) { return "device \"ipad\" needs iOS \(IOSRelease.firstWithScenes) or later (ios = \(ios))" }
    if !scenes { return "device \"ipad\" needs scenes (scenes = false)" }
    return nil
  }

  /// The header's `device` and `multipleScenes`, absent on an iPhone and for a one-scene app.
  mutating func readDevice(_ json: JSONValue) throws(KnobError) {
    if let value = json["device"] {
      guard let name = value.stringValue, let device = Device(rawValue: name) else {
        throw KnobError(description: "profile: device must be \"iphone\" or \"ipad\"")
      }
      self.device = device
      if let problem = deviceProblem { throw KnobError(description: "profile: " + problem) }
    }
    if let value = json["multipleScenes"] {
      guard let flag = value.boolValue else { throw KnobError(description: "profile: multipleScenes must be true or false") }
      multipleScenes = flag
    }
  }
}

/// The candidate closest to `word` by edit distance, if it is close enough to be a typo.
public func nearest(_ word: String, in candidates: [String]) -> String? {
  func distance(_ a: [Character], _ b: [Character]) -> Int {
    var row = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
      var prev = row[0]
      row[0] = i
      for j in stride(from: 1, through: b.count, by: 1) {
        let cur = row[j]
        row[j] = min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1))
        prev = cur
      }
    }
    return a.isEmpty ? b.count : row[b.count]
  }
  let w = Array(word.lowercased())
  var best: (String, Int)?
  for c in candidates {
    let d = distance(w, Array(c.lowercased()))
    if best == nil || d < best!.1 { best = (c, d) }
  }
  guard let best, best.1 <= max(3, w.count / 2) else { return nil }
  return best.0
}
