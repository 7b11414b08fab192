import BackgroundTasks
import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    return true
  }

  func applicationDidEnterBackground(_ application: UIApplication) {
    Store.shared.save()
  }

  func applicationWillEnterForeground(_ application: UIApplication) {
    Sync.shared.reconnect()
  }
}
