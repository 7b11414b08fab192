import JSON

/// What MetricKit 27 counts a termination as (S135): derived from the recorded reason and
/// description, so logs written before the categories existed read the same way
/// (docs/model.md §6, "Termination categories").
public enum TerminationCategory: String, Sendable, CaseIterable {
  case watchdog, taskTimeout, memoryLimit, systemPressure, badAccess, illegalInstruction, normal

  /// The category of a recorded termination.
  public init(_ termination: Termination) {
    switch termination.reason {
    case .watchdog: self = .watchdog
    // The model's choice: no source names the category of 0xdead10cc; like the watchdog, it is
    // the system ending a process that broke one of its rules.
    case .suspendedWithLockedFile: self = .watchdog
    case .backgroundTaskExpired: self = .taskTimeout
    case .jetsam:
      self = termination.description.hasPrefix(Termination.memoryLimitJetsamPrefix) ? .memoryLimit : .systemPressure
    // The model's choice: an error in app code stands for a trap (a Swift runtime failure or an
    // uncaught exception); only a code or description naming EXC_BAD_ACCESS is a bad access.
    case .crash:
      let badAccess = termination.code == Self.badAccessCode || termination.description.contains(Self.badAccessCode)
      self = badAccess ? .badAccess : .illegalInstruction
    case .user, .reboot: self = .normal
    }
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
