import BackgroundTasks
import UIKit
import UserNotifications

let fetchTaskIdentifier = "com.example.runner.fetch"

class SceneDelegate: UIResponder, UIWindowSceneDelegate, UNUserNotificationCenterDelegate {
  var window: UIWindow?

  func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
    guard let windowScene = scene as? UIWindowScene else { return }
    window = UIWindow(windowScene: windowScene)
    window?.rootViewController = RunnerViewController()
    window?.makeKeyAndVisible()
    UNUserNotificationCenter.current().delegate = self
    registerBackgroundTasks()
  }

  private func registerBackgroundTasks() {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: fetchTaskIdentifier, using: .main) { task in
      FetchPlugin.shared.perform(task)
    }
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.runner.unlisted", using: nil) { task in
      task.setTaskCompleted(success: false)
    }
  }

  func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                              withCompletionHandler completionHandler: @escaping () -> Void) {
    completionHandler()
  }
}
