import UIKit

class SceneDelegate: UIResponder, UIWindowSceneDelegate {
  var window: UIWindow?

  func sceneWillResignActive(_ scene: UIScene) {}
}
