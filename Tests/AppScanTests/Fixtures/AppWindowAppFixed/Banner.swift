import UIKit

enum Banner {
  static func show(_ text: String, from view: UIView) {
    guard let root = view.window?.rootViewController else { return }
    root.present(BannerController(text: text), animated: true)
  }
}
