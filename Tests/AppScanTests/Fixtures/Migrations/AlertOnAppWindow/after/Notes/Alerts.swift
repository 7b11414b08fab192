import UIKit

enum Alerts {
  static func show(_ message: String) {
    let alert = UIAlertController(title: nil, message: message, preferredStyle: .alert)
    UIApplication.shared.delegate?.window??.rootViewController?.present(alert, animated: true)
  }
}
