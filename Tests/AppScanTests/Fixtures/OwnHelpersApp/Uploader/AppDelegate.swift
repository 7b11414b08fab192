import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
  let runner = BackgroundRunner()

  func applicationDidEnterBackground(_ application: UIApplication) {
    // The app's own helpers, named like UIKit's: not UIKit's calls.
    runner.beginBackgroundTask()
    runner.beginBackgroundTask(name: "upload")
    // UIKit's own, on the application parameter: its handler leaves the task open.
    let identifier = application.beginBackgroundTask(withName: "flush") {
      print("flush expired")
    }
    _ = identifier
    UIApplication.shared.startSync()
  }
}
