import CarPlay

class CarPlaySceneDelegate: UIResponder, CPTemplateApplicationSceneDelegate {
  var interfaceController: CPInterfaceController?

  func templateApplicationScene(_ templateApplicationScene: CPTemplateApplicationScene,
                                didConnect interfaceController: CPInterfaceController) {
    self.interfaceController = interfaceController
  }

  func templateApplicationScene(_ templateApplicationScene: CPTemplateApplicationScene,
                                didDisconnectInterfaceController interfaceController: CPInterfaceController) {
    self.interfaceController = nil
  }

  func sceneDidBecomeActive(_ scene: UIScene) {}
}

class DashboardSceneDelegate: UIResponder, CPTemplateApplicationDashboardSceneDelegate {
  func templateApplicationDashboardScene(_ templateApplicationDashboardScene: CPTemplateApplicationDashboardScene,
                                         didConnect dashboardController: CPDashboardController, to window: UIWindow) {}
}
