import UIKit

extension SceneDelegate {
  func sceneWillEnterForeground(_ scene: UIScene) {
    let value = (1 +
  }

  func sceneDidDisconnect(_ scene: UIScene) {}
}
