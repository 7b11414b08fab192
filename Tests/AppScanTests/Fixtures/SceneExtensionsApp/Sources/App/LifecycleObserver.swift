import UIKit

/// Not a delegate: an observer whose methods only share names with the delegate's.
final class LifecycleObserver {
  init() {
    NotificationCenter.default.addObserver(self, selector: #selector(applicationDidEnterBackground),
                                           name: UIApplication.didEnterBackgroundNotification, object: nil)
  }

  @objc func applicationDidEnterBackground() {
    Analytics.flush()
  }

  func sceneDidEnterBackground(_ scene: UIScene) {}
}
