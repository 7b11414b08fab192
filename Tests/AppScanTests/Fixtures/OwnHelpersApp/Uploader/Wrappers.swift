import BackgroundTasks
import UIKit
import UserNotifications

/// A wrapper protocol whose `register` has BGTaskScheduler's first label but not its `using:`.
protocol TaskScheduling {
  func register(forTaskWithIdentifier identifier: String, launchHandler: @escaping (BGTask) -> Void) -> Bool
}

final class Alerts: NSObject, UNUserNotificationCenterDelegate {
  init(scheduler: TaskScheduling, center: UNUserNotificationCenter = .current()) {
    super.init()
    // The wrapper's register: not BGTaskScheduler's call.
    _ = scheduler.register(forTaskWithIdentifier: "com.example.uploader.wrapped") { $0.setTaskCompleted(success: true) }
    // A center held in a typed parameter is the notification center.
    center.delegate = self
    // UIKit's, with the handler Swift defaults to nil: the task is open when it expires.
    _ = UIApplication.shared.beginBackgroundTask(withName: "quick")
  }
}

extension BGTaskScheduler: TaskScheduling {
  /// BGTaskScheduler's own call, its identifier a parameter: unknown, not the constant below.
  func register(forTaskWithIdentifier identifier: String, launchHandler: @escaping (BGTask) -> Void) -> Bool {
    register(forTaskWithIdentifier: identifier, using: nil, launchHandler: launchHandler)
  }
}

enum Mocks {
  static let identifier = "mockIdentifier"
}
