class VendorDelegate: UIResponder, UIApplicationDelegate {
  func applicationDidBecomeActive(_ application: UIApplication) {}
}
