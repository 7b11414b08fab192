import BackgroundTasks
import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feeds.refresh", using: nil) { task in
      task.expirationHandler = { FeedStore.shared.cancelRefresh() }
      FeedStore.shared.refresh { task.setTaskCompleted(success: $0) }
    }
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.feeds.prune", using: nil) { task in
      self.prune(task as! BGProcessingTask)
    }
    return true
  }

  func prune(_ task: BGProcessingTask) {
    task.expirationHandler = { task.setTaskCompleted(success: false) }
    FeedStore.shared.prune { task.setTaskCompleted(success: $0) }
  }

  func scheduleBackgroundWork() {
    try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.feeds.refresh"))
    let prune = BGProcessingTaskRequest(identifier: "com.example.feeds.prune")
    prune.requiresExternalPower = true
    try? BGTaskScheduler.shared.submit(prune)
  }
}
