import EventStore

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

  public var ios: Int
  public var scenes: Bool
  public var launchAppearanceOrder: LaunchAppearanceOrder
  public var sceneLaunchAppearanceOrder: SceneLaunchAppearanceOrder
  /// `viewIsAppearing(_:)` is called (iOS ≥ 13).
  public var viewIsAppearing: Bool
  /// `updateProperties()` is called before layout (iOS ≥ 26).
  public var updateProperties: Bool
  /// Snapshot after entering background flips traits twice (iOS ≥ 13, T22).
  public var snapshotTraitFlip: Bool
  /// Prewarming exists (iOS ≥ 15).
  public var prewarming: Bool
  public var prewarmRunsDidFinish: PrewarmRunsDidFinish
  /// `present` without a style: fullScreen on iOS 12, pageSheet from 13.
  public var defaultPresentationStyle: PresentationStyle
  /// A suspended sceneless app woken for fetch or push gets didEnterBackground again (S3).
  public var resumeBackgroundEventCallsDidEnterBackground: Bool
  /// iOS 26 sceneless apps get a note that the UIScene life cycle will soon be required.
  public var sceneRequiredNote: Bool
  /// A full Notification Center pull resigns and becomes active twice, scene callbacks and
  /// UIApplication notifications alike (iOS ≥ 11); false gives the single pair of iOS 10.
  public var notificationCenterDoubleActivation: Bool

  /// Background-task allowance, counted only in background, shared by all tasks.
  public var backgroundTaskAllowance_us: Int64
  /// Expiration handlers run this long before the allowance ends.
  public var expirationLead_us: Int64
  /// applicationDidEnterBackground / sceneDidEnterBackground must return within this.
  public var didEnterBackgroundBudget_us: Int64
  /// applicationWillTerminate must return within this; the process ends anyway.
  public var willTerminateBudget_us: Int64
  /// Main-thread time from willFinishLaunching to the root's viewDidAppear.
  public var launchWatchdog_us: Int64
  /// Fetch and silent-push completion handlers must be called within this.
  public var completionHandlerBudget_us: Int64
  /// A callback blocking the main thread this long in the foreground is a scene-update kill.
  public var foregroundHangLimit_us: Int64
  /// Protected data becomes unavailable this long after the lock.
  public var protectedDataLockDelay_us: Int64
  /// Lua instructions one callback may run before it counts as a hung main thread.
  public var instructionLimit: Int64
  /// Bytes the app's Lua state may hold before it is killed as jetsam.
  public var memoryLimitBytes: Int64

  /// The defaults for iOS `ios`: any of `iosRange`, which a log header may name; a scenario may
  /// ask only for one of `releases` (12 to 18, or 26). `scenes` defaults to `ios >= 13`.
  public init(ios: Int = 17, scenes: Bool? = nil) {
    precondition(Self.iosRange.contains(ios), "ios out of range")
    self.ios = ios
    self.scenes = scenes ?? (ios >= 13)
    launchAppearanceOrder = .willAppearBeforeActive
    sceneLaunchAppearanceOrder = .willAppearBeforeForeground
    viewIsAppearing = ios >= 13
    updateProperties = ios >= 26
    snapshotTraitFlip = ios >= 13
    prewarming = ios >= 15
    prewarmRunsDidFinish = .never
    defaultPresentationStyle = ios >= 13 ? .pageSheet : .fullScreen
    resumeBackgroundEventCallsDidEnterBackground = true
    sceneRequiredNote = ios >= 26
    notificationCenterDoubleActivation = ios >= 11
    backgroundTaskAllowance_us = (ios >= 13 ? 30 : 180) * VirtualTime.microsecondsPerSecond
    expirationLead_us = 5 * VirtualTime.microsecondsPerSecond
    didEnterBackgroundBudget_us = 5 * VirtualTime.microsecondsPerSecond
    willTerminateBudget_us = 5 * VirtualTime.microsecondsPerSecond
    launchWatchdog_us = 20 * VirtualTime.microsecondsPerSecond
    completionHandlerBudget_us = 30 * VirtualTime.microsecondsPerSecond
    foregroundHangLimit_us = 10 * VirtualTime.microsecondsPerSecond
    protectedDataLockDelay_us = 10 * VirtualTime.microsecondsPerSecond
    instructionLimit = 50_000_000
    memoryLimitBytes = 64 << 20
  }

  /// The versions a log header may name (older lifesim versions accepted any of these).
  public static let iosRange = 12...26
  /// The iOS releases a new run may use: 12 to 18, then 26 (Apple skipped 19–25).
  public static let releases = [12, 13, 14, 15, 16, 17, 18, 26]
  /// "12 to 18, or 26": the releases as an error message names them.
  public static let releasesText = "12 to 18, or 26"

  // MARK: - Knobs by name

  /// A knob's value as a scenario writes it.
  public enum KnobValue: Sendable, Equatable {
    case number(Double)
    case bool(Bool)
    case string(String)
  }

  /// Every knob name a scenario may override, in the order the header records them.
  public static let knobNames: [String] = [
    "launchAppearanceOrder", "sceneLaunchAppearanceOrder", "viewIsAppearing", "updateProperties",
    "snapshotTraitFlip", "prewarming", "prewarmRunsDidFinish", "defaultPresentationStyle",
    "resumeBackgroundEventCallsDidEnterBackground", "sceneRequiredNote", "notificationCenterDoubleActivation",
    "backgroundTaskAllowance",
    "expirationLead", "didEnterBackgroundBudget", "willTerminateBudget", "launchWatchdog",
    "completionHandlerBudget", "foregroundHangLimit", "protectedDataLockDelay", "instructionLimit",
    "memoryLimitBytes",
  ]

  /// Why a knob override was refused; the message names the knob and what it accepts.
  public struct KnobError: Error, Equatable, CustomStringConvertible {
    public let description: String
  }

  /// Applies one override (`knobs = { name = value }`); durations are in seconds.
  public mutating func set(_ name: String, _ value: KnobValue) throws(KnobError) {
    func seconds() throws(KnobError) -> Int64 {
      guard case let .number(s) = value, s >= 0, s <= 86_400 * 365 else {
        throw KnobError(description: "knob \(name) takes a number of seconds from 0 to 31536000")
      }
      return VirtualTime.microseconds(seconds: s)
    }
    func flag() throws(KnobError) -> Bool {
      guard case let .bool(b) = value else { throw KnobError(description: "knob \(name) takes true or false") }
      return b
    }
    func choice<E: RawRepresentable & CaseIterable>(_: E.Type) throws(KnobError) -> E where E.RawValue == String {
      let all = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
      guard case let .string(s) = value, let e = E(rawValue: s) else {
        throw KnobError(description: "knob \(name) takes one of \(all)")
      }
      return e
    }
    func count(_ range: ClosedRange<Int64>) throws(KnobError) -> Int64 {
      guard case let .number(n) = value, n == n.rounded(), n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
        throw KnobError(description: "knob \(name) takes a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return Int64(n)
    }
    switch name {
    case "launchAppearanceOrder": launchAppearanceOrder = try choice(LaunchAppearanceOrder.self)
    case "sceneLaunchAppearanceOrder": sceneLaunchAppearanceOrder = try choice(SceneLaunchAppearanceOrder.self)
    case "viewIsAppearing": viewIsAppearing = try flag()
    case "updateProperties": updateProperties = try flag()
    case "snapshotTraitFlip": snapshotTraitFlip = try flag()
    case "prewarming": prewarming = try flag()
    case "prewarmRunsDidFinish": prewarmRunsDidFinish = try choice(PrewarmRunsDidFinish.self)
    case "defaultPresentationStyle": defaultPresentationStyle = try choice(PresentationStyle.self)
    case "resumeBackgroundEventCallsDidEnterBackground": resumeBackgroundEventCallsDidEnterBackground = try flag()
    case "sceneRequiredNote": sceneRequiredNote = try flag()
    case "notificationCenterDoubleActivation": notificationCenterDoubleActivation = try flag()
    case "backgroundTaskAllowance": backgroundTaskAllowance_us = try seconds()
    case "expirationLead": expirationLead_us = try seconds()
    case "didEnterBackgroundBudget": didEnterBackgroundBudget_us = try seconds()
    case "willTerminateBudget": willTerminateBudget_us = try seconds()
    case "launchWatchdog": launchWatchdog_us = try seconds()
    case "completionHandlerBudget": completionHandlerBudget_us = try seconds()
    case "foregroundHangLimit": foregroundHangLimit_us = try seconds()
    case "protectedDataLockDelay": protectedDataLockDelay_us = try seconds()
    case "instructionLimit": instructionLimit = try count(1_000...1_000_000_000_000)
    case "memoryLimitBytes": memoryLimitBytes = try count((1 << 20)...(1 << 34))
    default:
      let near = nearest(name, in: Self.knobNames).map { " (did you mean \($0)?)" } ?? ""
      throw KnobError(description: "unknown knob \(name)\(near)")
    }
  }

  // MARK: - The header's record

  /// The whole profile as the log header records it.
  public var json: JSONValue {
    .object([
      ("ios", .int(Int64(ios))),
      ("scenes", .bool(scenes)),
      ("launchAppearanceOrder", .string(launchAppearanceOrder.rawValue)),
      ("sceneLaunchAppearanceOrder", .string(sceneLaunchAppearanceOrder.rawValue)),
      ("viewIsAppearing", .bool(viewIsAppearing)),
      ("updateProperties", .bool(updateProperties)),
      ("snapshotTraitFlip", .bool(snapshotTraitFlip)),
      ("prewarming", .bool(prewarming)),
      ("prewarmRunsDidFinish", .string(prewarmRunsDidFinish.rawValue)),
      ("defaultPresentationStyle", .string(defaultPresentationStyle.rawValue)),
      ("resumeBackgroundEventCallsDidEnterBackground", .bool(resumeBackgroundEventCallsDidEnterBackground)),
      ("sceneRequiredNote", .bool(sceneRequiredNote)),
      ("notificationCenterDoubleActivation", .bool(notificationCenterDoubleActivation)),
      ("backgroundTaskAllowance_us", .int(backgroundTaskAllowance_us)),
      ("expirationLead_us", .int(expirationLead_us)),
      ("didEnterBackgroundBudget_us", .int(didEnterBackgroundBudget_us)),
      ("willTerminateBudget_us", .int(willTerminateBudget_us)),
      ("launchWatchdog_us", .int(launchWatchdog_us)),
      ("completionHandlerBudget_us", .int(completionHandlerBudget_us)),
      ("foregroundHangLimit_us", .int(foregroundHangLimit_us)),
      ("protectedDataLockDelay_us", .int(protectedDataLockDelay_us)),
      ("instructionLimit", .int(instructionLimit)),
      ("memoryLimitBytes", .int(memoryLimitBytes)),
    ])
  }

  /// Rebuilds a profile from a header's record.
  public init(json: JSONValue) throws(KnobError) {
    func int(_ k: String) throws(KnobError) -> Int64 {
      guard let v = json[k]?.intValue else { throw KnobError(description: "profile: missing \(k)") }
      return v
    }
    func bool(_ k: String) throws(KnobError) -> Bool {
      guard let v = json[k]?.boolValue else { throw KnobError(description: "profile: missing \(k)") }
      return v
    }
    func choice<E: RawRepresentable>(_ k: String) throws(KnobError) -> E where E.RawValue == String {
      guard let s = json[k]?.stringValue, let e = E(rawValue: s) else { throw KnobError(description: "profile: bad \(k)") }
      return e
    }
    let ios = Int(try int("ios"))
    guard Self.iosRange.contains(ios) else { throw KnobError(description: "profile: ios \(ios) out of range") }
    self.init(ios: ios, scenes: try bool("scenes"))
    launchAppearanceOrder = try choice("launchAppearanceOrder")
    sceneLaunchAppearanceOrder = try choice("sceneLaunchAppearanceOrder")
    viewIsAppearing = try bool("viewIsAppearing")
    updateProperties = try bool("updateProperties")
    snapshotTraitFlip = try bool("snapshotTraitFlip")
    prewarming = try bool("prewarming")
    prewarmRunsDidFinish = try choice("prewarmRunsDidFinish")
    defaultPresentationStyle = try choice("defaultPresentationStyle")
    resumeBackgroundEventCallsDidEnterBackground = try bool("resumeBackgroundEventCallsDidEnterBackground")
    sceneRequiredNote = try bool("sceneRequiredNote")
    // Logs written before this knob existed gave the single pair: they replay that way.
    notificationCenterDoubleActivation = json["notificationCenterDoubleActivation"] == nil
      ? false : try bool("notificationCenterDoubleActivation")
    backgroundTaskAllowance_us = try int("backgroundTaskAllowance_us")
    expirationLead_us = try int("expirationLead_us")
    didEnterBackgroundBudget_us = try int("didEnterBackgroundBudget_us")
    willTerminateBudget_us = try int("willTerminateBudget_us")
    launchWatchdog_us = try int("launchWatchdog_us")
    completionHandlerBudget_us = try int("completionHandlerBudget_us")
    foregroundHangLimit_us = try int("foregroundHangLimit_us")
    protectedDataLockDelay_us = try int("protectedDataLockDelay_us")
    instructionLimit = try int("instructionLimit")
    memoryLimitBytes = try int("memoryLimitBytes")
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
