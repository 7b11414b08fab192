import UIKit

class SyncCoordinator {
  private var taskID = UIBackgroundTaskIdentifier.invalid

  func finishInBackground() {
    taskID = UIApplication.shared.beginBackgroundTask(withName: "sync") {
      Task { @MainActor in
        UIApplication.shared.endBackgroundTask(self.taskID)
      }
    }
  }

  static let shared = SyncCoordinator()
}
