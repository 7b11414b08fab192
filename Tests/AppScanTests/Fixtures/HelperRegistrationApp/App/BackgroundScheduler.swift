import BackgroundTasks
import UIKit

enum TaskIdentifier: String {
  case refresh = "com.example.notes.refresh"
  case cleanup = "com.example.notes.cleanup"
}

final class BackgroundScheduler {
  static let shared = BackgroundScheduler()
  private var saveTask: UIBackgroundTaskIdentifier = .invalid

  func registerHandlers() {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: TaskIdentifier.refresh.rawValue, using: nil) { task in
      self.handleRefresh(task as! BGAppRefreshTask)
    }
    BGTaskScheduler.shared.register(forTaskWithIdentifier: TaskIdentifier.cleanup.rawValue, using: nil) { task in
      self.handleCleanup(task as! BGProcessingTask)
    }
  }

  func saveInBackground() {
    saveTask = UIApplication.shared.beginBackgroundTask(withName: "save") {
      DispatchQueue.main.async {
        UIApplication.shared.endBackgroundTask(self.saveTask)
      }
    }
  }

  private func handleRefresh(_ task: BGAppRefreshTask) { task.setTaskCompleted(success: true) }
  private func handleCleanup(_ task: BGProcessingTask) { task.setTaskCompleted(success: true) }
}
