import UIKit

// The notification delegate stays the app delegate, set at launch: it receives every tap, the
// one that launches the app included, so willConnectTo need not read notificationResponse.
class SceneDelegate: UIResponder, UIWindowSceneDelegate {
  var window: UIWindow?

  func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
    guard let windowScene = scene as? UIWindowScene else { return }
    window = UIWindow(windowScene: windowScene)
    window?.rootViewController = NotesViewController()
    window?.makeKeyAndVisible()
  }
}
