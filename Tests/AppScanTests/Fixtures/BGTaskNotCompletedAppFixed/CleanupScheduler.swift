import BackgroundTasks
import Foundation

/// Two schedulers, each with its own `taskIdentifier`: a bare name resolves in its own type.
enum CleanupScheduler {
  static let taskIdentifier = "com.example.feeds.cleanup"

  static func register() {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: taskIdentifier, using: .main) { task in
      handleCleanup(task: task)
    }
  }

  /// Completes through a nested function, once, from the work or from the expiration.
  private static func handleCleanup(task: BGTask) {
    var didComplete = false
    func complete(_ success: Bool) {
      DispatchQueue.main.async {
        guard !didComplete else { return }
        didComplete = true
        task.setTaskCompleted(success: success)
      }
    }
    task.expirationHandler = { complete(false) }
    FeedStore.shared.cleanUp { complete($0) }
  }
}

enum ArchiveScheduler {
  static let taskIdentifier = "com.example.feeds.archive"

  static func register() {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: taskIdentifier, using: .main) { task in
      task.expirationHandler = { task.setTaskCompleted(success: false) }
      FeedStore.shared.archive { task.setTaskCompleted(success: $0) }
    }
  }
}
