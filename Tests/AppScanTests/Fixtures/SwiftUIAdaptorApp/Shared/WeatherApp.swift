import BackgroundTasks
import SwiftUI

@main
struct WeatherApp: App {
  @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate
  @Environment(\.scenePhase) private var scenePhase

  var body: some Scene {
    WindowGroup {
      ForecastView()
    }
    .backgroundTask(.appRefresh(RefreshIdentifiers.forecast)) {
      await ForecastStore.shared.refresh()
    }
    .onChange(of: scenePhase) { _, phase in
      if phase == .background { ForecastStore.shared.scheduleRefresh() }
    }
  }
}

enum RefreshIdentifiers {
  static let forecast = "com.example.weather.forecast"
}
