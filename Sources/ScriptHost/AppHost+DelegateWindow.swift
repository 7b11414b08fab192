import Lifecycle
import LuaRuntime

// `UIApplication.shared:delegateWindow(site)`: a read of the app delegate's `window`
// (`UIApplication.shared.delegate?.window`). UIKit sets it only in a run without scenes; in a scene
// app it sets each scene delegate's window instead, so the read is nil there. The log records each
// read with the app's code that made it (`site`, a `file:line` of the Swift in a scan's mirror).
extension AppHost {
  /// Sets `delegateWindow` on the table at the top of the stack (`UIApplication.shared`).
  func installDelegateWindow(_ vm: LuaVM) {
    vm.push { [link] vm in
      guard let self = link.host else { return 0 }
      try Self.requireMethodCall(vm, "delegateWindow")
      var site: String?
      switch vm.type(2) {
      case .nil, .none: break
      case .string:
        site = vm.string(2)
        // The same rules as a `choose` site: 1 to 200 bytes, no control character.
        if let site, ForcedChoices.problem(site: site) != nil {
          throw LuaRaise(at: vm, "delegateWindow: the site must be 1 to \(ForcedChoices.maxSiteBytes) bytes with no control character")
        }
      default:
        throw LuaRaise(at: vm, "delegateWindow: expected the reading code's site as a string (\"Banner.swift:5\"), not \(vm.describeValue(2))")
      }
      vm.push(try self.call(.readDelegateWindow(site: site), from: vm) != nil)
      return 1
    }
    vm.rawSet(-2, "delegateWindow")
  }
}
