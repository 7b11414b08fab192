import Lifecycle
import LuaRuntime

extension AppHost {
  /// The deployment targets `app { minimumIOS = N }` accepts: iOS 2, the first SDK, to the
  /// newest release.
  static var minimumIOSRange: ClosedRange<Int> { 2...IOSRelease.latest.version }

  /// `app { minimumIOS = 12 }`: the oldest iOS the app supports, a whole number (absent: the
  /// first iOS with scenes). It gates diagnostics only.
  static func minimumIOS(_ vm: LuaVM, inTableAt idx: Int32) throws -> Int {
    vm.rawGet(idx, "minimumIOS")
    defer { vm.pop() }
    guard vm.type(-1) != .nil else { return IOSRelease.firstWithScenes }
    guard let v = vm.wholeNumber(-1), let n = Int(exactly: v), minimumIOSRange.contains(n) else {
      throw LuaRaise(at: vm, "app: minimumIOS must be a whole number from \(minimumIOSRange.lowerBound) "
                       + "to \(minimumIOSRange.upperBound), not \(vm.describeValue(-1))")
    }
    return n
  }

  /// `app { sceneManifest = "none" | "empty" | "configured" }` (Info.plist's
  /// `UIApplicationSceneManifest`: absent, without configurations, or with one); nil when absent.
  static func sceneManifest(_ vm: LuaVM, inTableAt idx: Int32) throws -> SceneManifest? {
    vm.rawGet(idx, "sceneManifest")
    defer { vm.pop() }
    guard vm.type(-1) != .nil else { return nil }
    guard vm.type(-1) == .string, let name = vm.string(-1), let manifest = SceneManifest(rawValue: name) else {
      throw LuaRaise(at: vm, "app: sceneManifest must be \"none\", \"empty\" or \"configured\", not \(vm.describeValue(-1))")
    }
    return manifest
  }
}
