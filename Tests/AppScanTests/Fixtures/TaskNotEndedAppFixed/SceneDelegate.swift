import UIKit

class SceneDelegate: UIResponder, UIWindowSceneDelegate {
  var window: UIWindow?

  func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
    guard let windowScene = scene as? UIWindowScene else { return }
    window = UIWindow(windowScene: windowScene)
    window?.rootViewController = ComposeViewController()
    window?.makeKeyAndVisible()
  }

  // Leaving the app hands the drafts to the uploader, whose tasks the scan follows.
  func sceneDidEnterBackground(_ scene: UIScene) {
    let uploader = DraftUploader(application: .shared)
    uploader.uploadOnLeaving(DraftStore.shared.pending)
    uploader.saveOnLeaving(DraftStore.shared)
    try? uploader.exportOnLeaving(DraftStore.shared)
  }
}
