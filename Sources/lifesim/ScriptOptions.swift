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
  @Option(help: "The iOS profile: a release from \(IOSRelease.text) (default: the script's, else \(IOSRelease.defaultVersion)).")
  var ios: Int?

  @OptionGroup var sdkOption: SDKOption

  @Flag(help: "Run the app without the UIScene life cycle (app delegate only).")
  var noScenes = false

  /// `--no-scenes` as a run's configuration says it: false, or nil (the script decides).
  var scenes: Bool? { noScenes ? false : nil }

  /// `--sdk`, when given.
  var sdk: Int? { sdkOption.sdk }

  func validate() throws {
    if let ios { try validateRelease(ios, "--ios") }
  }
}

/// `--choose SITE=true|false` (repeatable): fixes the outcome of the app's `choose(site)` calls
/// (`run`, `test`, `scan --check`).
struct ChoiceOptions: ParsableArguments {
  @Option(name: .customLong("choose"), help: ArgumentHelp(
    "Fix the outcome of the app's choose(SITE) calls (repeatable); SITE@N fixes it in the run's Nth launch alone. Other sites draw from the seed. The log records each.",
    valueName: "SITE=true|false"))
  var choose: [String] = []

  /// The choices as the run takes them; `validate()` has refused any it cannot read.
  var choices: ForcedChoices {
    var choices = ForcedChoices()
    for text in choose { try? choices.force(parsing: text) }
    return choices
  }

  func validate() throws {
    var choices = ForcedChoices()
    for text in choose {
      do throws(Profile.KnobError) { try choices.force(parsing: text) } catch { throw ValidationError(error.description) }
    }
  }
}

/// `--sdk N`: the SDK the app is built with, over its `app { sdk = … }` (`run`, `test`,
/// `explore`, `replay --app`, `profile`).
struct SDKOption: ParsableArguments {
  @Option(help: "The SDK the app is built with: a release from \(IOSRelease.text) (default: the app's, else \(IOSRelease.appStoreSDK) or the iOS if older).")
  var sdk: Int?

  func validate() throws {
    if let sdk { try validateRelease(sdk, "--sdk", as: .sdk) }
  }
}

/// Refuses `number` as `option` gave it, a usage error (exit 2), unless it is a release.
func validateRelease(_ number: Int, _ option: String, as axis: IOSRelease.Axis = .version) throws {
  do throws(IOSRelease.Refusal) { _ = try IOSRelease(number, option, as: axis) } catch { throw ValidationError(error.description) }
}
