import BackgroundTasks
import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.notes.sync", using: nil) { task in
      SyncEngine.shared.sync { task.setTaskCompleted(success: $0) }
    }
    return true
  }

  // A scene app never hears this: the sync below never runs on the way out.
  func applicationDidEnterBackground(_ application: UIApplication) {
    SyncEngine.shared.sync { _ in }
  }
}
