import UIKit

/// A UIKit scene app: the home-screen quick actions reach this delegate, cold and warm.
class MainSceneDelegate: UIResponder, UIWindowSceneDelegate {
  var window: UIWindow?

  func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
    guard let windowScene = scene as? UIWindowScene else { return }
    window = UIWindow(windowScene: windowScene)
    window?.rootViewController = NotesViewController()
    window?.makeKeyAndVisible()
    if let shortcut = connectionOptions.shortcutItem { Shortcuts.perform(shortcut) }
  }

  func windowScene(_ windowScene: UIWindowScene, performActionFor shortcutItem: UIApplicationShortcutItem,
                   completionHandler: @escaping (Bool) -> Void) {
    completionHandler(Shortcuts.perform(shortcutItem))
  }
}
