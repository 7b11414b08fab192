import Foundation
import Testing
@testable import AppScan
import TestSupport

/// Which `UIWindow(frame:)` calls of an app delegate count, and under what condition the mirror
/// makes them (docs/scan.md): one made only where `#available` says the system predates scenes
/// never meets a scene; one compiled under an `#if` waits on a `choose` of its own.
@Suite struct FrameWindowReadingTests {
  /// The app delegate with `body` in its launch method, in a scene app (it has the configuration method).
  private func windows(_ name: String, _ body: String) throws -> [WindowCall] {
    let root = temporaryPath("appscan-window", name)
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try """
      import UIKit
      @main class AppDelegate: UIResponder, UIApplicationDelegate {
        var window: UIWindow?
        func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
      \(body)
          return true
        }
        func application(_ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
                         options: UIScene.ConnectionOptions) -> UISceneConfiguration {
          UISceneConfiguration(name: nil, sessionRole: connectingSceneSession.role)
        }
      }
      """.write(toFile: root + "/AppDelegate.swift", atomically: false, encoding: .utf8)
    return try AppScanner.scan([root]).apps[0].frameWindows
  }

  @Test func aWindowOnlyForSystemsBeforeScenesIsNotCounted() throws {
    let older = try windows("older", """
        if #available(iOS 13.0, *) {
        } else {
          window = UIWindow(frame: UIScreen.main.bounds)
        }
      """)
    #expect(older.isEmpty)
    let unavailable = try windows("unavailable", """
        if #unavailable(iOS 13) {
          window = UIWindow(frame: UIScreen.main.bounds)
        }
      """)
    #expect(unavailable.isEmpty)
    // Where scenes exist, and an older floor that says nothing of them: counted.
    let newer = try windows("newer", """
        if #available(iOS 13.0, *) {
          window = UIWindow(frame: UIScreen.main.bounds)
        }
        if #available(iOS 12, *) {
        } else {
          window = UIWindow(frame: .zero)
        }
      """)
    #expect(newer.map(\.place.line) == [6, 10])
    #expect(newer.allSatisfy { $0.condition == nil })
  }

  @Test func aWindowUnderAnIfConfigWaitsOnTheBuild() throws {
    let compiled = try windows("ifconfig", """
      #if DEBUG
          window = UIWindow(frame: UIScreen.main.bounds)
      #endif
      """)
    #expect(compiled.map(\.condition?.description) == ["under #if DEBUG, which the build decides"])
    let runtime = try windows("runtime", """
        if Settings.showsBanner {
          window = UIWindow(frame: UIScreen.main.bounds)
        }
      """)
    #expect(runtime.map(\.condition?.description) == ["inside the `if` at line 5"])
  }
}
