import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
  func applicationWillEnterForeground(_ application: UIApplication) {}
}
