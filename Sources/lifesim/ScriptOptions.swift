import ArgumentParser
import Lifecycle
import ScriptHost

/// `--lib DIR` (repeatable), for every command that loads scripts from files.
struct ModuleOptions: ParsableArguments {
  @Option(name: .customLong("lib"), help: ArgumentHelp(
    "A folder where require looks for modules (repeatable), after the script's own folder.", valueName: "DIR"))
  var lib: [String] = []

  /// Where `require` looks: `--lib`, `LIFESIM_PATH`, then the bundled helpers.
  var searchPath: [String] { ModuleSearchPath.folders(libs: lib) }
}

/// `--ios N`, `--sdk N` and `--no-scenes`: the profile of a run (`run`, `explore`).
struct ProfileOptions: ParsableArguments {
  @Option(help: "The iOS profile: a release from 12 to 18, 26 or 27 (default: the script's, else 17).")
  var ios: Int?

  @OptionGroup var sdkOption: SDKOption

  @Flag(help: "Run the app without the UIScene life cycle (app delegate only).")
  var noScenes = false

  /// `--no-scenes` as a run's configuration says it: false, or nil (the script decides).
  var scenes: Bool? { noScenes ? false : nil }

  /// `--sdk`, when given.
  var sdk: Int? { sdkOption.sdk }

  func validate() throws {
    if let ios, !Profile.releases.contains(ios) {
      throw ValidationError("--ios must be a released iOS version (\(Profile.releasesText)), not \(ios)")
    }
  }
}

/// `--sdk N`: the SDK the app is built with, over its `app { sdk = … }` (`run`, `test`,
/// `explore`, `replay --app`, `profile`).
struct SDKOption: ParsableArguments {
  @Option(help: "The SDK the app is built with: a release from 12 to 18, 26 or 27 (default: the app's, else 26 or the iOS if older).")
  var sdk: Int?

  func validate() throws {
    if let sdk, !Profile.releases.contains(sdk) {
      throw ValidationError("--sdk must be a released iOS SDK (\(Profile.releasesText)), not \(sdk)")
    }
  }
}
