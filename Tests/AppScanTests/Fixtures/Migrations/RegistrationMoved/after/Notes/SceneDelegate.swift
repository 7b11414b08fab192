import UIKit

class SceneDelegate: UIResponder, UIWindowSceneDelegate {
  var window: UIWindow?

  func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
    guard let windowScene = scene as? UIWindowScene else { return }
    window = UIWindow(windowScene: windowScene)
    window?.rootViewController = NotesViewController()
    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.notes.sync", using: nil) { task in
      task.expirationHandler = { task.setTaskCompleted(success: false) }
      Sync.shared.run(task)
    }
    window?.makeKeyAndVisible()
  }
}
