import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {}

class SceneDelegate: UIResponder, UIWindowSceneDelegate {
  var window: UIWindow?

  // Opens the composer, but never tells UIKit whether it handled the action.
  func windowScene(_ windowScene: UIWindowScene, performActionFor shortcutItem: UIApplicationShortcutItem,
                   completionHandler: @escaping (Bool) -> Void) {
    if shortcutItem.type == "compose" {
      Composer.open()
    }
  }
}

enum Composer {
  static func open() {}
}
