import JSON

// What counts as adopting the UIScene life cycle (docs/model.md §13, "What counts as adopting
// scenes"): Info.plist's scene manifest beside the app delegate's configuration method. `lifesim
// scan` reads the same two facts from a project and applies the same rules.

/// Info.plist's `UIApplicationSceneManifest` as the app declares it (`app { sceneManifest = … }`).
public enum SceneManifest: String, Sendable, CaseIterable {
  /// No `UIApplicationSceneManifest` key.
  case none
  /// The key without any `UISceneConfigurations` (the templates of cross-platform frameworks).
  case empty
  /// The key with a scene configuration.
  case configured
}

/// The rules that decide from an app's manifest and app delegate whether UIKit gives it scenes,
/// and whether it launches under iOS 27's scene mandate.
public enum SceneAdoption {
  /// Whether UIKit runs the app with scenes (from iOS 13): its manifest names a configuration,
  /// or it has the key and its app delegate's `application(_:configurationForConnecting:options:)`
  /// gives one in code. An empty manifest with no method configures no scene delegate: the app
  /// keeps the app delegate's life cycle (docs/decisions.md).
  public static func usesScenes(manifest: SceneManifest, hasConfigurationMethod: Bool) -> Bool {
    switch manifest {
    case .none: return false
    case .empty: return hasConfigurationMethod
    case .configured: return true
    }
  }

  /// Whether iOS `ios` traps at the launch of an app built with SDK `sdk` that has not adopted
  /// scenes (the scene mandate; the default of knob `sceneLifecycleAssert`).
  public static func mandateApplies(ios: Int, sdk: Int) -> Bool { ios >= IOSRelease.sceneMandate && sdk >= IOSRelease.sceneMandate }

  /// Whether an app with `manifest`, whose app delegate does or does not implement
  /// `application(_:configurationForConnecting:options:)`, launches on iOS `ios` when built with
  /// SDK `sdk`: every shape but `none` and `empty` without the method does, and those two do
  /// wherever the mandate does not apply (TN3187; docs/model.md §13 has the table).
  public static func launches(manifest: SceneManifest, hasConfigurationMethod: Bool, ios: Int, sdk: Int) -> Bool {
    !mandateApplies(ios: ios, sdk: sdk) || usesScenes(manifest: manifest, hasConfigurationMethod: hasConfigurationMethod)
  }
}

/// An app's declared manifest shape where the `scenes` shorthand would not give it (the header
/// records it then, and only then).
public struct SceneManifestShape: Equatable, Sendable {
  public var manifest: SceneManifest
  /// Whether the app delegate implements `application(_:configurationForConnecting:options:)`.
  public var hasConfigurationMethod: Bool

  public init(manifest: SceneManifest, hasConfigurationMethod: Bool) {
    self.manifest = manifest; self.hasConfigurationMethod = hasConfigurationMethod
  }

  /// Whether `scenes` alone gives this shape: `false` is `none` (either way of the method),
  /// `true` is `configured` with the method.
  func isShorthand(scenes: Bool) -> Bool {
    scenes ? manifest == .configured && hasConfigurationMethod : manifest == .none
  }
}

extension Profile {
  /// The run of an app that declares `shape`: `scenes` follows from it (from iOS 13), and the
  /// shape is kept for the header unless `scenes` alone gives it. Refused (the reason, for the
  /// caller to place) when the scenario's `declaredScenes` says otherwise.
  public mutating func adopt(_ shape: SceneManifestShape, declaredScenes: Bool?) throws(KnobError) {
    let uses = SceneAdoption.usesScenes(manifest: shape.manifest, hasConfigurationMethod: shape.hasConfigurationMethod)
    if let declaredScenes, declaredScenes != uses {
      let method = shape.hasConfigurationMethod ? "with" : "without"
      throw KnobError(description: "scenes = \(declaredScenes) disagrees with the app's sceneManifest = \"\(shape.manifest.rawValue)\" "
        + "\(method) AppDelegate.configurationForConnecting, which \(uses ? "uses" : "does not use") scenes")
    }
    scenes = uses && IOSRelease.hasScenes(ios)
    sceneManifest = shape.isShorthand(scenes: scenes) ? nil : shape
  }

  /// The header's `sceneManifest` and `configurationForConnecting`, present only when the
  /// shorthand does not give the shape.
  var sceneManifestFields: [(String, JSONValue)] {
    guard let shape = sceneManifest else { return [] }
    return [("sceneManifest", .string(shape.manifest.rawValue)), ("configurationForConnecting", .bool(shape.hasConfigurationMethod))]
  }

  /// Reads the header's manifest shape; one that gives other scenes than the header's is refused.
  mutating func readSceneManifest(_ json: JSONValue) throws(KnobError) {
    guard let value = json["sceneManifest"] else { return }
    guard let name = value.stringValue, let manifest = SceneManifest(rawValue: name) else {
      throw KnobError(description: "profile: sceneManifest must be \"none\", \"empty\" or \"configured\"")
    }
    guard let method = json["configurationForConnecting"]?.boolValue else {
      throw KnobError(description: "profile: sceneManifest needs configurationForConnecting (true or false)")
    }
    let shape = SceneManifestShape(manifest: manifest, hasConfigurationMethod: method)
    guard !IOSRelease.hasScenes(ios) || SceneAdoption.usesScenes(manifest: manifest, hasConfigurationMethod: method) == scenes else {
      throw KnobError(description: "profile: sceneManifest \"\(name)\" disagrees with scenes = \(scenes)")
    }
    sceneManifest = shape
  }
}
