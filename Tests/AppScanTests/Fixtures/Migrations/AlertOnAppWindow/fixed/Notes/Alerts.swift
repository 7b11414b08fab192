import UIKit

enum Alerts {
  static func show(_ message: String, from controller: UIViewController) {
    let alert = UIAlertController(title: nil, message: message, preferredStyle: .alert)
    controller.present(alert, animated: true)
  }
}
