import UIKit

class AppDelegate: NSObject, UIApplicationDelegate {
  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    Store.shared.open()
    return true
  }

  /// SwiftUI keeps the window; a scene delegate of ours takes the quick actions.
  func application(_ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
                   options: UIScene.ConnectionOptions) -> UISceneConfiguration {
    let configuration = UISceneConfiguration(name: "Main", sessionRole: connectingSceneSession.role)
    configuration.delegateClass = ShortcutSceneDelegate.self
    return configuration
  }
}
