import BackgroundTasks
import UIKit
import UserNotifications

@main
class AppDelegate: UIResponder, UIApplicationDelegate, UNUserNotificationCenterDelegate {
  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feeds.refresh", using: nil) { task in
      guard Settings.shared.backgroundRefreshEnabled else { return task.setTaskCompleted(success: true) }
      self.handle(task)
    }
    if #available(iOS 13.0, *) {
      BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feeds.cleanup", using: nil) { self.handle($0) }
    }
    UNUserNotificationCenter.current().delegate = self

    return true
  }

  private func handle(_ task: BGTask) {
    task.expirationHandler = { task.setTaskCompleted(success: false) }
    FeedStore.shared.refresh { task.setTaskCompleted(success: $0) }
  }
}
