import SwiftUI

@main
struct NotesWatchApp: App {
  @WKApplicationDelegateAdaptor(ExtensionDelegate.self) var delegate

  var body: some Scene {
    WindowGroup { Text("Notes") }
  }
}
