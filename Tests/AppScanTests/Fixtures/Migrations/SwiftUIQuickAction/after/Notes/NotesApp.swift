import SwiftUI

/// The SwiftUI life cycle: the window is SwiftUI's, and nothing handles a quick action.
@main
struct NotesApp: App {
  @UIApplicationDelegateAdaptor(AppDelegate.self) var appDelegate

  var body: some Scene {
    WindowGroup { NotesView() }
  }
}
