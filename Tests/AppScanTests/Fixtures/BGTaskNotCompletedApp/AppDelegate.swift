import BackgroundTasks
import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feeds.refresh", using: nil) { task in
      self.refreshFeeds(task: task as! BGAppRefreshTask)
    }
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feeds.prune", using: nil) { task in
      task.expirationHandler = { FeedStore.shared.cancelPruning() }
      FeedStore.shared.prune { pruned in
        if pruned {
          task.setTaskCompleted(success: true)
        }
      }
    }
    CleanupScheduler.register()
    return true
  }

  func refreshFeeds(task: BGAppRefreshTask) {
    task.expirationHandler = { FeedStore.shared.cancelRefresh() }
    guard let account = Account.current else { return }
    account.refresh { task.setTaskCompleted(success: $0) }
  }
}
