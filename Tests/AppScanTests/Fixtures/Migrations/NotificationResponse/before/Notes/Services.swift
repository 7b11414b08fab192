import UIKit
import UserNotifications

final class Inbox {
  static let shared = Inbox()
  func show(_ response: UNNotificationResponse?) {}
}

final class NotesViewController: UIViewController {}
