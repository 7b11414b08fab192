import JSON

/// Something UIKit tells a developer in the console, or silently skips, that a run records as a
/// note with a stable `code` (docs/lua-api.md, "Diagnostics"). The outcome lists every one;
/// `--strict` fails a run that has any.
public struct Diagnostic: Equatable, Sendable {
  /// The stable codes. A note with any code is a diagnostic, so a code added elsewhere is
  /// listed without a change here.
  public enum Code: String, CaseIterable, Sendable {
    case handlerNeverCalled = "handler_never_called"
    case taskOpenAfterExpiration = "task_open_after_expiration"
    case sceneLifecycleRequired = "scene_lifecycle_required"
    case notificationDelegateLate = "notification_delegate_late"
    case deprecatedInSDK = "deprecated_in_sdk"
    case noExpectations = "no_expectations"
  }

  public let code: String
  public let message: String
  /// The app's handler it is about (`AppDelegate.applicationDidEnterBackground`), if any.
  public let handler: String?
  /// The script line it is about (`s.lua:4`), if any.
  public let line: String?

  public init(code: String, message: String, handler: String? = nil, line: String? = nil) {
    self.code = code; self.message = message; self.handler = handler; self.line = line
  }

  /// The diagnostic a note records, nil for a plain note. A handler's diagnostic is the note
  /// named after the handler (`Diagnostic.handlerNote`).
  public static func from(name: String, message: String, code: String?) -> Diagnostic? {
    guard let code else { return nil }
    let aboutHandler = code == Code.handlerNeverCalled.rawValue || code == Code.deprecatedInSDK.rawValue
    return Diagnostic(code: code, message: message, handler: aboutHandler ? name : nil)
  }

  /// `{"code":…,"message":…,"handler"?:…,"line"?:…}`, as the outcome lists it.
  public var json: JSONValue {
    var members: [(String, JSONValue)] = [("code", .string(code)), ("message", .string(message))]
    if let handler { members.append(("handler", .string(handler))) }
    if let line { members.append(("line", .string(line))) }
    return .object(members)
  }
}
