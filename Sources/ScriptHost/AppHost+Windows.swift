import Lifecycle
import LuaRuntime

// The app's windows as UIKit answers for them, each call naming the app's code that made it
// (`site`, a `file:line` of the Swift in a scan's mirror), and each recorded in the log:
// - `UIApplication.shared:delegateWindow(site)`: a read of the app delegate's `window`
//   (`UIApplication.shared.delegate?.window`). UIKit sets it only in a run without scenes; in a
//   scene app it sets each scene delegate's window instead, so the read is nil there.
// - `UIApplication.shared:frameWindow(site)`: a window the app makes with `UIWindow(frame:)` and
//   makes key and visible. It shows only in a run without scenes: with scenes a window shows in
//   the scene it is attached to, and one made from a frame is attached to none.
extension AppHost {
  /// Sets `delegateWindow` and `frameWindow` on the table at the top of the stack (`UIApplication.shared`).
  func installWindows(_ vm: LuaVM) {
    installWindowCall(vm, "delegateWindow", example: "Banner.swift:5") { .readDelegateWindow(site: $0) }
    installWindowCall(vm, "frameWindow", example: "AppDelegate.swift:12") { .makeFrameWindow(site: $0) }
  }

  /// `UIApplication.shared:NAME(site)`: the request `make` builds from the optional site, answered
  /// true when the model answers at all.
  private func installWindowCall(_ vm: LuaVM, _ name: String, example: String, _ make: @escaping (String?) -> AppRequest) {
    vm.push { [link] vm in
      guard let self = link.host else { return 0 }
      try Self.requireMethodCall(vm, name)
      var site: String?
      switch vm.type(2) {
      case .nil, .none: break
      case .string:
        site = vm.string(2)
        // The same rules as a `choose` site: 1 to 200 bytes, no control character.
        if let site, ForcedChoices.problem(site: site) != nil {
          throw LuaRaise(at: vm, "\(name): the site must be 1 to \(ForcedChoices.maxSiteBytes) bytes with no control character")
        }
      default:
        throw LuaRaise(at: vm, "\(name): expected the code's site as a string (\"\(example)\"), not \(vm.describeValue(2))")
      }
      vm.push(try self.call(make(site), from: vm) != nil)
      return 1
    }
    vm.rawSet(-2, name)
  }
}
