import UIKit

class SyncCoordinator {
  private var taskID = UIBackgroundTaskIdentifier.invalid

  func finishInBackground() {
    taskID = UIApplication.shared.beginBackgroundTask(withName: "sync") {
      UIApplication.shared.endBackgroundTask(self.taskID)
      self.taskID = .invalid
    }
  }

  static let shared = SyncCoordinator()
}
