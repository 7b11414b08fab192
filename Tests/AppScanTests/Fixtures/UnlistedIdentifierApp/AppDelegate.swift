import BackgroundTasks
import UIKit

/// Registers two launch handlers at launch; the archive's identifier was renamed here and not
/// in the Info.plist, so iOS refuses that registration and never runs the archive.
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
