import UIKit

@UIApplicationMain
class AppDelegate: UIResponder, UIApplicationDelegate {
  var window: UIWindow?
  private var uploadTask: UIBackgroundTaskIdentifier = .invalid

  func application(_ application: UIApplication,
                   didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    Settings.registerDefaults()
    return true
  }

  func applicationWillResignActive(_ application: UIApplication) {
    DraftStore.shared.flush()
  }

  func applicationDidEnterBackground(_ application: UIApplication) {
    uploadTask = application.beginBackgroundTask(withName: "upload-drafts") {
      application.endBackgroundTask(self.uploadTask)
      self.uploadTask = .invalid
    }
    DraftStore.shared.upload { [weak self] in
      guard let self else { return }
      application.endBackgroundTask(self.uploadTask)
    }
  }

  func applicationWillEnterForeground(_ application: UIApplication) {}

  func applicationDidBecomeActive(_ application: UIApplication) {
    InboxViewController.current?.refresh()
  }

  func applicationWillTerminate(_ application: UIApplication) {
    DraftStore.shared.flush()
  }
}
