import EventStore
import Lifecycle
import LuaRuntime

// The app API of continued processing tasks (iOS 26): the members `submit{ kind = "continued" }`
// takes, and `task:updateProgress(done, total)` on the task a continued launch handler receives
// (docs/lua-api.md, docs/model.md §16).
extension AppHost {
  /// The request members only a continued request takes.
  static let continuedKeys = ["strategy", "subtitle", "title"]

  /// A continued request's `title`, `subtitle` (strings) and `strategy` (`"queue"`, the default,
  /// or `"fail"`); nil for another kind, which may not have them.
  static func readContinued(_ vm: LuaVM, at idx: Int32, kind: BGTaskKind, earliestBeginUs: Int64) throws -> ContinuedRequest? {
    var texts: [String?] = []
    for key in continuedKeys {
      vm.rawGet(idx, key)
      defer { vm.pop() }
      guard vm.type(-1) != .nil else { texts.append(nil); continue }
      guard kind == .continued else { throw LuaRaise(at: vm, "submit: only a continued request takes \(key)") }
      guard vm.type(-1) == .string, let text = vm.string(-1) else {
        throw LuaRaise(at: vm, "submit: \(key) must be a string, not \(vm.describeValue(-1))")
      }
      texts.append(text)
    }
    guard kind == .continued else { return nil }
    if earliestBeginUs != 0 { throw LuaRaise(at: vm, "submit: a continued request starts when submitted: it takes no earliestBegin") }
    guard let subtitle = texts[1], let title = texts[2] else {
      throw LuaRaise(at: vm, "submit: a continued request needs a title and a subtitle (its Live Activity shows them): "
                       + "BGTaskScheduler:submit{ id = \"com.example.export.1\", kind = \"continued\", title = \"Exporting\", subtitle = \"3 photos\" }")
    }
    guard let strategy = texts[0].map({ ContinuedStrategy(rawValue: $0) }) ?? .queue else {
      throw LuaRaise(at: vm, "submit: strategy must be \"queue\" or \"fail\"")
    }
    return ContinuedRequest(title: title, subtitle: subtitle, strategy: strategy)
  }

  /// Sets `task:updateProgress(done, total)` on the task table at the top of the stack.
  func pushUpdateProgress(_ vm: LuaVM, identifier: String) {
    vm.push { [link] vm in
      guard let self = link.host else { return 0 }
      guard vm.type(1) == .table else {
        throw LuaRaise(at: vm, "updateProgress: call it with ':' — task:updateProgress(3, 10), not task.updateProgress(3, 10)")
      }
      let usage = "updateProgress: expected whole numbers 0 ≤ done ≤ total, total > 0: task:updateProgress(3, 10)"
      guard let done = Self.progressCount(vm, 2), let total = Self.progressCount(vm, 3), total > 0, done <= total else {
        throw LuaRaise(at: vm, usage)
      }
      try self.call(.updateProgress(identifier: identifier, done: done, total: total), from: vm)
      return 0
    }
    vm.rawSet(-2, "updateProgress")
  }

  /// A whole number from 0 to 2⁵³ at `idx`, or nil.
  private static func progressCount(_ vm: LuaVM, _ idx: Int32) -> Int64? {
    guard vm.type(idx) == .number, let n = vm.number(idx), n.isFinite, n >= 0, n <= Double(AppCall.progressCountMax),
          n == n.rounded() else { return nil }
    return Int64(n)
  }
}
