import UIKit

/// Shows onboarding on first launch in the scene's own window.
class SceneDelegate: UIResponder, UIWindowSceneDelegate {
  var window: UIWindow?

  func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
    guard let windowScene = scene as? UIWindowScene else { return }
    window = UIWindow(windowScene: windowScene)
    let seen = Preferences.shared.hasSeenOnboarding
    window?.rootViewController = seen ? InboxViewController() : OnboardingViewController()
    window?.makeKeyAndVisible()
  }
}
