import BackgroundTasks
import UIKit

final class Store {
  static let shared = Store()
  func save() {}
}

final class Sync {
  static let shared = Sync()
  func reconnect() {}
  func run(_ task: BGTask) { task.setTaskCompleted(success: true) }
}

final class Router {
  static let shared = Router()
  func open(_ url: URL?) {}
  func continueActivity(_ activity: NSUserActivity?) {}
  func perform(_ item: UIApplicationShortcutItem?) -> Bool { true }
}

enum Theme {
  static func apply() {}
}
