import JSON

/// What MetricKit 27 counts a termination as (S135): derived from the recorded reason and
/// description, so logs written before the categories existed read the same way
/// (docs/model.md §6, "Termination categories").
public enum TerminationCategory: String, Sendable, CaseIterable {
  case watchdog, taskTimeout, memoryLimit, systemPressure, badAccess, illegalInstruction, abnormal, fileLock, normal

  /// The category of a recorded termination.
  public init(_ termination: Termination) {
    switch termination.reason {
    case .watchdog: self = .watchdog
    // 0xdead10cc: "terminated while suspended for holding file locks" (S72, S135).
    case .suspendedWithLockedFile: self = .fileLock
    case .backgroundTaskExpired: self = .taskTimeout
    case .jetsam:
      self = termination.description.hasPrefix(Termination.memoryLimitJetsamPrefix) ? .memoryLimit : .systemPressure
    // An uncaught Objective-C exception is `abnormal` (S135); the model's choice: any other
    // error in app code stands for a Swift runtime trap, and only a code or description naming
    // EXC_BAD_ACCESS is a bad access.
    case .crash:
      if termination.code == Self.badAccessCode || termination.description.contains(Self.badAccessCode) {
        self = .badAccess
      } else {
        self = Self.namesException(termination.description) ? .abnormal : .illegalInstruction
      }
    case .user, .reboot: self = .normal
    }
  }

  /// Whether a crash's description begins with an Objective-C exception's name and a colon
  /// (`NSInternalInconsistencyException: …`, as a crash report's "Terminating app due to uncaught
  /// exception" names it); an error in app code may have Lua's `file:line: ` before the name.
  static func namesException(_ description: String) -> Bool {
    startsWithExceptionName(Substring(description)) || afterLuaPosition(description).map(startsWithExceptionName) == true
  }

  /// `NS…Exception:` at the start of `text`.
  private static func startsWithExceptionName(_ text: Substring) -> Bool {
    guard let colon = text.firstIndex(of: ":") else { return false }
    let name = text[..<colon]
    return name.hasPrefix("NS") && name.hasSuffix("Exception") && name.allSatisfy { $0.isASCII && $0.isLetter }
  }

  /// The text after a Lua error's `file:line: ` position (up to the first ": "), or nil when it has none.
  private static func afterLuaPosition(_ text: String) -> Substring? {
    let bytes = text.utf8
    guard let separator = bytes.indices.first(where: { i in
      bytes[i] == UInt8(ascii: ":") && bytes.index(after: i) < bytes.endIndex && bytes[bytes.index(after: i)] == UInt8(ascii: " ")
    }) else { return nil }
    let position = bytes[..<separator]
    guard let colon = position.lastIndex(of: UInt8(ascii: ":")) else { return nil }
    let line = position[position.index(after: colon)...]
    guard !line.isEmpty, line.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
    return Substring(text.utf8[bytes.index(separator, offsetBy: 2)...])
  }

  /// The Mach exception of a read or write of memory the process may not touch.
  static let badAccessCode = "EXC_BAD_ACCESS"

  /// The category of a termination as an outcome's JSON holds it (`reason`, `description`);
  /// nil for a reason lifesim does not write.
  public init?(outcomeTermination t: JSONValue) {
    guard let reason = t["reason"]?.stringValue.flatMap(TerminationReason.init(rawValue:)) else { return nil }
    self.init(Termination(reason: reason, code: t["code"]?.stringValue, description: t["description"]?.stringValue ?? ""))
  }

  /// The outcome's terminations, each with its `category` and `foreground` (`foreground[i]`,
  /// from the fold; null where the fold has none or the reason is not lifesim's). The log's
  /// trailer keeps the outcome without them: it is what the run recorded.
  public static func annotated(outcome: JSONValue, foreground: [Bool]) -> JSONValue {
    guard case let .object(members) = outcome else { return outcome }
    return .object(members.map { key, value in
      guard key == "terminations", case let .array(items) = value else { return (key, value) }
      return (key, .array(items.enumerated().map { i, item in
        guard case let .object(fields) = item else { return item }
        let category = Self(outcomeTermination: item).map { JSONValue.string($0.rawValue) } ?? .null
        let inForeground = foreground.indices.contains(i) ? JSONValue.bool(foreground[i]) : .null
        return .object(fields + [("category", category), ("foreground", inForeground)])
      }))
    })
  }
}

/// Whether the app is in the foreground, as MetricKit 27 splits terminations (S135): a process
/// the user launched is from its start (a scene app's application state is still `background`
/// then), then while its application state is active or inactive or a scene is in the
/// foreground. A prewarmed, suspended or background process is in the background. Followed
/// event by event, as the trace reads a log.
public struct ForegroundTracker: Equatable, Sendable {
  public private(set) var foreground = false

  public init() {}

  public mutating func follow(_ body: EventBody) {
    switch body {
    case let .processStarted(mode, _): foreground = mode == .foreground
    case let .launchContinued(state): foreground = state != .background
    case let .applicationStateChanged(_, to): foreground = to != .background
    case let .sceneActivationChanged(_, _, to): if to == .foregroundInactive || to == .foregroundActive { foreground = true }
    case .suspended, .terminated, .crashed: foreground = false
    default: break
    }
  }
}

extension LifecycleState {
  /// The outcome with each termination's category and foreground (what `run`, `replay` and the
  /// exports show; the trailer keeps the outcome as recorded).
  public func annotated(outcome: JSONValue) -> JSONValue {
    TerminationCategory.annotated(outcome: outcome, foreground: terminationsInForeground)
  }
}
