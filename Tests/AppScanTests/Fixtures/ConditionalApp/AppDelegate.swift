import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
  var window: UIWindow?

  func application(_ application: UIApplication,
                   didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
#if targetEnvironment(macCatalyst)
    window = UIWindow(frame: UIScreen.main.bounds)
    window?.rootViewController = CatalystRootController()
    window?.makeKeyAndVisible()
#endif
    return true
  }

#if DEBUG
  func applicationDidBecomeActive(_ application: UIApplication) {
    DebugMenu.install()
  }
#elseif BETA
  func applicationDidBecomeActive(_ application: UIApplication) {
    BetaFeedback.install()
  }
#else
  func applicationSignificantTimeChange(_ application: UIApplication) {}
#endif

  func application(_ application: UIApplication,
                   configurationForConnecting connectingSceneSession: UISceneSession,
                   options: UIScene.ConnectionOptions) -> UISceneConfiguration {
    let configuration = UISceneConfiguration(name: nil, sessionRole: connectingSceneSession.role)
    configuration.delegateClass = SceneDelegate.self
    return configuration
  }
}
