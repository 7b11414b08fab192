import UIKit

/// Wraps UIKit's background task; its own methods share UIKit's name.
final class BackgroundRunner {
  private var task: UIBackgroundTaskIdentifier = .invalid
  private let app = UIApplication.shared

  func beginBackgroundTask() {
    task = app.beginBackgroundTask(expirationHandler: { [weak self] in
      self?.endBackgroundTask()
    })
  }

  func beginBackgroundTask(name: String) {
    task = app.beginBackgroundTask(withName: name) {
      self.endBackgroundTask()
    }
  }

  func endBackgroundTask() {
    app.endBackgroundTask(task)
    task = .invalid
  }
}

extension UIApplication {
  /// Unqualified inside an extension of UIApplication: UIKit's own call, whose handler does nothing.
  func startSync() {
    _ = beginBackgroundTask(withName: "sync", expirationHandler: nil)
  }
}
