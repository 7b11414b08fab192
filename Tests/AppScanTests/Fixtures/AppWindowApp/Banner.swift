import UIKit

enum Banner {
  static func show(_ text: String) {
    guard let root = UIApplication.shared.delegate?.window??.rootViewController else { return }
    root.present(BannerController(text: text), animated: true)
  }
}
