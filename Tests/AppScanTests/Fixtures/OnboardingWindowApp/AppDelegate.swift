import UIKit

/// Shows onboarding on first launch from a window it makes itself: in a scene app that window
/// belongs to no scene, so a new user sees nothing of it.
@main
class AppDelegate: UIResponder, UIApplicationDelegate {
  var onboardingWindow: UIWindow?

  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    if !Preferences.shared.hasSeenOnboarding {
      presentOnboarding()
    }
    return true
  }

  private func presentOnboarding() {
    let window = UIWindow(frame: UIScreen.main.bounds)
    window.rootViewController = OnboardingViewController()
    window.makeKeyAndVisible()
    onboardingWindow = window
  }
}
