import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {}

class SceneDelegate: UIResponder, UIWindowSceneDelegate {
  var window: UIWindow?

  // Tells UIKit on every path.
  func windowScene(_ windowScene: UIWindowScene, performActionFor shortcutItem: UIApplicationShortcutItem,
                   completionHandler: @escaping (Bool) -> Void) {
    guard shortcutItem.type == "compose" else { return completionHandler(false) }
    Composer.open()
    completionHandler(true)
  }
}

enum Composer {
  static func open() {}
}
