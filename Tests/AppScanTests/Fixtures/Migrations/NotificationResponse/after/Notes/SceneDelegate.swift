import UIKit

// The migration reads the tap that launches the app from the connection options, and drops the
// notification delegate: a tap while the app runs now reaches nothing.
class SceneDelegate: UIResponder, UIWindowSceneDelegate {
  var window: UIWindow?

  func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
    guard let windowScene = scene as? UIWindowScene else { return }
    window = UIWindow(windowScene: windowScene)
    window?.rootViewController = NotesViewController()
    window?.makeKeyAndVisible()
    Inbox.shared.show(connectionOptions.notificationResponse)
  }
}
