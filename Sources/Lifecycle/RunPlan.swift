/// What a run is (its iOS, the SDK the app is built with, the device, scenes, knobs), decided
/// in one place from every layer that may say something about it. Each later layer overrides
/// the earlier ones:
///
/// 1. the defaults: `IOSRelease.defaultVersion`, that release's SDK, scenes where it has them;
/// 2. the recorded header (`replay`), which stands for the scenario and the command line that
///    made it: with one, the scenario's declaration and the app's manifest are not read again;
/// 3. the scenario's `scenario { ios, scenes, device, knobs, choose }`;
/// 4. the app's `app { sdk, multipleScenes, sceneManifest }` (over a recorded SDK only for
///    `replay --app`, whose app is a new build);
/// 5. the command line: `--ios`, `--sdk`, `--no-scenes` and `--choose`, which win (a site
///    `--choose` names over the same site a recorded header forced).
///
/// `run`, `replay`, `test` (through the run) and `explore` all ask `profile()` and nothing else.
public struct RunPlan: Sendable, Equatable {
  /// What a scenario (or an explore spec) declares about its profile.
  public struct ScenarioLayer: Sendable, Equatable {
    public var ios: Int?
    public var scenes: Bool?
    public var device: Profile.Device?
    /// In the order they are applied (name order, so table order never decides).
    public var knobs: [Knob]
    /// `choose = { … }`: the app's `choose` outcomes the scenario fixes.
    public var choices: ForcedChoices

    public init(ios: Int? = nil, scenes: Bool? = nil, device: Profile.Device? = nil, knobs: [Knob] = [],
                choices: ForcedChoices = .init()) {
      self.ios = ios; self.scenes = scenes; self.device = device; self.knobs = knobs; self.choices = choices
    }
  }

  /// One `knobs = { name = value }` entry.
  public struct Knob: Sendable, Equatable {
    public var name: String
    public var value: Profile.KnobValue

    public init(_ name: String, _ value: Profile.KnobValue) { self.name = name; self.value = value }
  }

  /// What the app's `app { … }` declares that the profile follows.
  public struct AppLayer: Sendable, Equatable {
    public var sdk: Int?
    public var multipleScenes: Bool
    public var sceneManifest: SceneManifestShape?

    public init(sdk: Int? = nil, multipleScenes: Bool = false, sceneManifest: SceneManifestShape? = nil) {
      self.sdk = sdk; self.multipleScenes = multipleScenes; self.sceneManifest = sceneManifest
    }

    /// The layer an app's declared layout gives.
    public init(_ layout: AppLayout) {
      self.init(sdk: layout.sdk, multipleScenes: layout.multipleScenes, sceneManifest: layout.sceneManifestShape)
    }
  }

  /// The options of the command line that shape the profile.
  public struct CommandLineLayer: Sendable, Equatable {
    public var ios: Int?
    public var sdk: Int?
    /// `--no-scenes`: asks what the run would do if the app had no scene manifest.
    public var noScenes: Bool
    /// `--choose SITE=true|false`: the app's `choose(site)` calls this run fixes.
    public var choices: ForcedChoices

    public init(ios: Int? = nil, sdk: Int? = nil, noScenes: Bool = false, choices: ForcedChoices = .init()) {
      self.ios = ios; self.sdk = sdk; self.noScenes = noScenes; self.choices = choices
    }
  }

  /// Why a plan makes no profile. `kind` says which rule refused, so each command places the
  /// message where its user looks (the scenario's declaration line, the spec, the app's path).
  public struct Refusal: Error, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
      /// The iOS asked for is not a release lifesim models.
      case ios
      /// Scenes asked for on a release without them.
      case scenes
      /// An iPad on a profile that cannot have one.
      case device
      /// A knob unknown or out of range.
      case knob
      /// The app's scene manifest disagrees with the scenario's `scenes`.
      case manifest
    }

    public let kind: Kind
    public let description: String

    public init(kind: Kind, description: String) { self.kind = kind; self.description = description }
  }

  public var recorded: Profile?
  public var scenario: ScenarioLayer
  /// Nil until the app is read: `profile()` then gives what the other layers decide.
  public var app: AppLayer?
  public var commandLine: CommandLineLayer
  /// `replay --app`: the app's declared SDK decides over the recorded one.
  public var appIsNewBuild: Bool

  public init(recorded: Profile? = nil, scenario: ScenarioLayer = .init(), app: AppLayer? = nil,
              commandLine: CommandLineLayer = .init(), appIsNewBuild: Bool = false) {
    self.recorded = recorded; self.scenario = scenario; self.app = app
    self.commandLine = commandLine; self.appIsNewBuild = appIsNewBuild
  }

  /// The run's profile: the one function that decides it.
  public func profile() throws(Refusal) -> Profile {
    var profile: Profile
    if let recorded { profile = replayed(recorded) } else { profile = try declared() }
    profile.forcedChoices = profile.forcedChoices.merging(commandLine.choices)
    if let app {
      profile.multipleScenes = app.multipleScenes
      if recorded == nil, !commandLine.noScenes, let shape = app.sceneManifest {
        do { try profile.adopt(shape, declaredScenes: scenario.scenes) } catch {
          throw Refusal(kind: .manifest, description: error.description)
        }
        if let problem = profile.deviceProblem { throw Refusal(kind: .device, description: problem) }
      }
    }
    return profile
  }

  /// The SDK the app is built with where a layer names one: the command line's, else the app's
  /// (over a recorded profile only when the app is a new build).
  private var namedSDK: Int? {
    if let sdk = commandLine.sdk { return sdk }
    if recorded != nil, !appIsNewBuild { return nil }
    return app?.sdk
  }

  /// The recorded profile, for an app built with the SDK a later layer names.
  private func replayed(_ recorded: Profile) -> Profile {
    namedSDK.map(recorded.building(with:)) ?? recorded
  }

  /// The profile the scenario and the command line declare, over the defaults.
  private func declared() throws(Refusal) -> Profile {
    let ios = commandLine.ios ?? scenario.ios ?? IOSRelease.defaultVersion
    do throws(IOSRelease.Refusal) { _ = try IOSRelease(ios, "ios") } catch {
      throw Refusal(kind: .ios, description: error.description)
    }
    let scenes = commandLine.noScenes ? false : (scenario.scenes ?? IOSRelease.hasScenes(ios))
    if scenes, !IOSRelease.hasScenes(ios) {
      throw Refusal(kind: .scenes, description: "scenes need iOS \(IOSRelease.firstWithScenes) or later (ios = \(ios))")
    }
    var profile = Profile(ios: ios, scenes: scenes, sdk: namedSDK)
    profile.device = scenario.device ?? .iphone
    if let problem = profile.deviceProblem { throw Refusal(kind: .device, description: problem) }
    for knob in scenario.knobs {
      do { try profile.set(knob.name, knob.value) } catch { throw Refusal(kind: .knob, description: error.description) }
    }
    profile.forcedChoices = scenario.choices
    return profile
  }
}
