import BackgroundTasks
import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.lite.refresh", using: nil) { task in
      task.setTaskCompleted(success: true)
    }
    return true
  }

  // Never called either: Lite is a scene app too, and its finding is its own.
  func applicationDidEnterBackground(_ application: UIApplication) {
    SyncEngine.shared.sync { _ in }
  }
}
