import BackgroundTasks
import UIKit

/// Registers two launch handlers at launch, each listed in the Info.plist.
@main
class AppDelegate: UIResponder, UIApplicationDelegate {
  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.ledger.sync", using: nil) { task in
      task.expirationHandler = { LedgerSync.shared.stop() }
      LedgerSync.shared.run { task.setTaskCompleted(success: $0) }
    }
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.ledger.archive-v2", using: nil) { task in
      task.expirationHandler = { LedgerArchive.shared.stop() }
      LedgerArchive.shared.compact { task.setTaskCompleted(success: $0) }
    }
    return true
  }
}
