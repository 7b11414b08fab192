import BackgroundTasks
import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feeds.prune", using: nil) { $0.setTaskCompleted(success: true) }
    // The fetch, as an app refresh task the system runs.
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feeds.refresh", using: nil) { $0.setTaskCompleted(success: true) }
    return true
  }
}
