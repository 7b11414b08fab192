import BackgroundTasks
import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
  var window: UIWindow?

  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.notes.sync", using: nil) { task in
      task.expirationHandler = { task.setTaskCompleted(success: false) }
      Sync.shared.run(task)
    }
    window = UIWindow(frame: UIScreen.main.bounds)
    window?.rootViewController = NotesViewController()
    window?.makeKeyAndVisible()
    return true
  }
}
