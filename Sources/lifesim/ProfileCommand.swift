import ArgumentParser
import JSON
import Lifecycle
import Render

struct ProfileCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "profile",
    abstract: "Print the profile a run would use: every knob with its Lua name, unit and value, and what changed from the previous release.",
    discussion: helpText("""
      The values are the defaults for the iOS version; a scenario's knobs = { … } overrides
      them by the same names. The previous release is compared with the same choice of scenes.

      Examples:
        lifesim profile --ios 13
        lifesim profile --ios 26 --no-scenes --json
        lifesim profile --ios 27 --sdk 27 --no-scenes
        lifesim profile --ios 26 --device ipad
      """)
  )

  @Option(help: "The iOS release: \(IOSRelease.text) (default \(IOSRelease.defaultVersion)).")
  var ios: Int = IOSRelease.defaultVersion

  @OptionGroup var sdkOption: SDKOption

  @Flag(help: "The profile of an app without the UIScene life cycle (app delegate only).")
  var noScenes = false

  @Option(help: "The device: iphone (default) or ipad (several windows; needs iOS \(IOSRelease.firstWithScenes) or later and scenes).")
  var device: String = Profile.Device.iphone.rawValue

  @Flag(help: "Print one JSON object instead of the table.")
  var json = false

  func validate() throws {
    try validateRelease(ios, "--ios")
    if Profile.Device(rawValue: device) == nil {
      throw ValidationError("--device must be iphone or ipad, not \(ShellCommand.quote(device))")
    }
  }

  func run() throws {
    defer { Terminal.flush() }
    let report: ProfileReport
    do { report = try ProfileReport(ios: ios, scenes: noScenes ? false : nil, sdk: sdkOption.sdk,
                                                         device: Profile.Device(rawValue: device) ?? .iphone) } catch {
      throw ValidationError(error.message)
    }
    if json {
      Terminal.write(report.json.canonicalText)
    } else {
      report.lines.forEach(Terminal.write)
    }
  }
}
