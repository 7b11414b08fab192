import BackgroundTasks
import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.notes.sync", using: nil) { task in
      task.expirationHandler = { task.setTaskCompleted(success: false) }
      Sync.shared.run(task)
    }
    return true
  }
}
