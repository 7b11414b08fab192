import UIKit

// Kept from before the scene migration.
extension AppDelegate {
  func applicationDidEnterBackground(_ application: UIApplication) {
    Analytics.flush()
  }

  func application(_ application: UIApplication,
                   didReceiveRemoteNotification userInfo: [AnyHashable: Any]) async -> UIBackgroundFetchResult {
    await SyncEngine.shared.pull() ? .newData : .noData
  }

  func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
    DeepLinks.handle(url)
  }
}
