import BackgroundTasks
import UIKit
import UserNotifications

@main
class AppDelegate: UIResponder, UIApplicationDelegate, UNUserNotificationCenterDelegate {
  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    if Settings.shared.backgroundRefreshEnabled {
      BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feeds.refresh", using: nil) { self.handle($0) }
    }
    if #available(iOS 13.0, *) {
      BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feeds.cleanup", using: nil) { self.handle($0) }
    }
    let center: UNUserNotificationCenter? = Settings.shared.notificationsEnabled ? .current() : nil
    center?.delegate = self
    return true
  }

  private func handle(_ task: BGTask) {
    task.expirationHandler = { task.setTaskCompleted(success: false) }
    FeedStore.shared.refresh { task.setTaskCompleted(success: $0) }
  }
}
