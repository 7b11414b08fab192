import BackgroundTasks
import UIKit
import UserNotifications

@main
class AppDelegate: UIResponder, UIApplicationDelegate, UNUserNotificationCenterDelegate {
  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    DispatchQueue.main.async {
      BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.inbox.refresh", using: nil) { task in
        task.setTaskCompleted(success: true)
      }
    }
    Task {
      UNUserNotificationCenter.current().delegate = self
    }
    perform(#selector(registerCleanup), with: nil, afterDelay: 0)
    return true
  }

  @objc func registerCleanup() {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.inbox.cleanup", using: nil) { task in
      task.setTaskCompleted(success: true)
    }
  }

  func application(_ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
                   options: UIScene.ConnectionOptions) -> UISceneConfiguration {
    UISceneConfiguration(name: "Default", sessionRole: connectingSceneSession.role)
  }

  func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                              withCompletionHandler completionHandler: @escaping () -> Void) {
    completionHandler()
  }
}
