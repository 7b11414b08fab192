import UIKit

class SceneDelegate: UIResponder, UIWindowSceneDelegate {
  var window: UIWindow?

  func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
    guard let windowScene = scene as? UIWindowScene else { return }
    window = UIWindow(windowScene: windowScene)
    window?.rootViewController = ComposeViewController()
    window?.makeKeyAndVisible()
  }

  // Coming back to the app greets the user with a banner.
  func sceneWillEnterForeground(_ scene: UIScene) {
    if let view = window?.rootViewController?.view { Banner.show("Welcome back", from: view) }
  }
}
