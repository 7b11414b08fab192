import BackgroundTasks
import UIKit

enum TaskKind: String {
  case cleanup
}

enum Identifiers {
  static let prefix = "com.example.tasks"
  static var refresh: String { "com.example.tasks.refresh" }
  static var prune: String {
    return prefix + ".prune"
  }
  static let archive = "\(prefix).archive"
}

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
  static let bundleRefresh = Bundle.main.bundleIdentifier! + ".bundle-refresh"

  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    let scheduler = BGTaskScheduler.shared
    scheduler.register(forTaskWithIdentifier: Identifiers.refresh, using: nil) { $0.setTaskCompleted(success: true) }
    scheduler.register(forTaskWithIdentifier: Identifiers.prune, using: nil) { $0.setTaskCompleted(success: true) }
    scheduler.register(forTaskWithIdentifier: Identifiers.archive, using: nil) { $0.setTaskCompleted(success: true) }
    scheduler.register(forTaskWithIdentifier: Identifiers.prefix + "." + TaskKind.cleanup.rawValue, using: nil) { $0.setTaskCompleted(success: true) }
    scheduler.register(forTaskWithIdentifier: Self.bundleRefresh, using: nil) { $0.setTaskCompleted(success: true) }
    return true
  }
}
