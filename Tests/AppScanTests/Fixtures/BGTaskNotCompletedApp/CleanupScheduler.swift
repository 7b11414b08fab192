import BackgroundTasks
import Foundation

enum CleanupScheduler {
  static let taskIdentifier = "com.example.feeds.cleanup"

  static func register() {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: taskIdentifier, using: .main) { task in
      handleCleanup(task: task)
    }
  }

  /// The nested function only logs: nothing completes the task.
  private static func handleCleanup(task: BGTask) {
    func complete(_ success: Bool) {
      print("cleanup finished: \(success)")
    }
    task.expirationHandler = { FeedStore.shared.cancelCleanup() }
    FeedStore.shared.cleanUp { complete($0) }
  }
}
