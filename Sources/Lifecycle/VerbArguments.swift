import JSON

/// One argument of a verb, as the reader checks it and `candidates` enumerates it. Its key is
/// the field the log records it under.
public enum VerbArgument: Sendable {
  /// A string argument `key`; `expected` names it in the error (`"a controller name"`).
  case string(key: String, expected: String, domain: StringDomain)
  /// One of `words`; the error says `expected <expected>`.
  case choice(key: String, words: [String], expected: String)
  /// A whole number (`select_tab`); the error says `expected <expected>`. Candidates: the tabs.
  case tab(key: String, expected: String)
  /// Seconds from 0 to a year, read as µs.
  case seconds(key: String)
  /// `true` or `false` (`power(on)`).
  case boolean(key: String)
  /// An optional table of named options, read in this order (an error lists them sorted).
  case options([VerbOption])
  /// A scene's number (`disconnect_scene(1)` names `Scene#1`); the error says `expected <expected>`.
  /// Candidates: the domain's scenes.
  case scene(key: String, expected: String)
  /// One of `words`, or absent (`memory_pressure()` / `memory_pressure("critical")`).
  case optionalChoice(key: String, words: [String], expected: String)
  /// `act`'s action name (`key`) and every value after it (`argumentsKey`, a list of strings,
  /// numbers and booleans). Candidates: the app's actions with their argument lists.
  case action(key: String, argumentsKey: String)

  /// The values `candidates` tries for this argument (an option may also be absent).
  func values(_ domain: ArgumentDomain) -> [VerbArguments] {
    switch self {
    case let .string(key, _, kind): return domain.strings(kind).map { VerbArguments([key: .text($0)]) }
    case let .choice(key, words, _): return words.map { VerbArguments([key: .text($0)]) }
    case let .tab(key, _): return domain.tabs > 0 ? (1...domain.tabs).map { VerbArguments([key: .number(Int64($0))]) } : []
    case let .seconds(key): return domain.durationsUs.map { VerbArguments([key: .number($0)]) }
    case let .scene(key, _): return domain.scenes.map { VerbArguments([key: .number(Int64($0))]) }
    case let .optionalChoice(key, words, _): return [VerbArguments()] + words.map { VerbArguments([key: .text($0)]) }
    case let .boolean(key): return [true, false].map { VerbArguments([key: .flag($0)]) }
    case let .options(options):
      var combinations = [VerbArguments()]
      for option in options {
        let values = (option.required ? [] : [nil]) + option.values(domain).map { Optional($0) }
        combinations = combinations.flatMap { partial in
          values.map { value in value.map { partial.merging(VerbArguments([option.key: $0])) } ?? partial }
        }
      }
      return combinations
    case let .action(key, argumentsKey):
      return domain.actions.calls.compactMap { input in
        guard case let .act(name, arguments) = input else { return nil }
        return VerbArguments([key: .text(name), argumentsKey: .list(arguments)])
      }
    }
  }
}

/// One key of a verb's options table.
public struct VerbOption: Sendable {
  public enum Kind: Sendable {
    case string(StringDomain)
    case choice([String])
    /// true or false; absent is false.
    case flag
    /// A scene's number (`from = 1` names `Scene#1`). Candidates: the domain's scenes.
    case scene
  }
  public let key: String
  public let kind: Kind
  /// The verb cannot be called without it (`tap_notification{id=}`).
  public let required: Bool

  public init(_ key: String, _ kind: Kind, required: Bool = false) { self.key = key; self.kind = kind; self.required = required }

  func values(_ domain: ArgumentDomain) -> [VerbValue] {
    switch kind {
    case let .string(kind): return domain.strings(kind).map(VerbValue.text)
    case let .choice(words): return words.map(VerbValue.text)
    case .flag: return [.flag(true)]
    case .scene: return domain.scenes.map { .number(Int64($0)) }
    }
  }
}

/// Where a free string argument's candidates come from.
public enum StringDomain: Sendable {
  case controllers, urls
  /// Notification identifiers, notification actions, quick-action types, activity types: any
  /// string the app chooses; candidates are `ArgumentDomain.sampleWords`.
  case notificationIDs, notificationActions, shortcutTypes, activityTypes
  /// The pending BGTaskScheduler requests' identifiers; the sessions with a transfer that can finish.
  case bgTaskRequests, transferSessions
  /// The running continued tasks a user can cancel (`cancel_task`).
  case continuedTasks
}

/// A read argument's value.
public enum VerbValue: Equatable, Sendable {
  case text(String)
  case number(Int64)
  case flag(Bool)
  /// `act`'s arguments.
  case list([JSONValue])
}

/// The arguments of one call, by key (absent options are missing).
public struct VerbArguments: Equatable, Sendable {
  public var values: [String: VerbValue]

  public init(_ values: [String: VerbValue] = [:]) { self.values = values }

  public func text(_ key: String) -> String? {
    if case let .text(s) = values[key] { return s }
    return nil
  }

  public func number(_ key: String) -> Int64? {
    if case let .number(n) = values[key] { return n }
    return nil
  }

  /// A list of values (`act`'s arguments).
  public func list(_ key: String) -> [JSONValue]? {
    if case let .list(l) = values[key] { return l }
    return nil
  }

  /// A flag option: absent is false.
  public func flag(_ key: String) -> Bool {
    if case let .flag(b) = values[key] { return b }
    return false
  }

  /// The word at `key` as one of `E`'s cases.
  public func choice<E: RawRepresentable>(_ key: String, _: E.Type) -> E? where E.RawValue == String {
    text(key).flatMap(E.init(rawValue:))
  }

  func merging(_ other: VerbArguments) -> VerbArguments {
    VerbArguments(values.merging(other.values) { _, new in new })
  }
}

/// The values to try for arguments whose domain is not fixed.
public struct ArgumentDomain: Sendable {
  /// The view-controller classes the app declares.
  public var controllers: [String]
  /// The tabs of the window (0: no tab bar).
  public var tabs: Int
  public var urls: [String]
  public var durationsUs: [Int64]
  /// The scene numbers to name (`disconnect_scene`).
  public var scenes: [Int]
  /// The app's user actions, for `act`.
  public var actions: ActionCatalog
  /// The identifiers of the pending BGTaskScheduler requests (`bg_task`).
  public var bgTaskRequests: [String]
  /// The background sessions with a transfer that can finish (`transfer_done`).
  public var transferSessions: [String]
  /// The running continued tasks not yet expired (`cancel_task`).
  public var continuedTasks: [String] = []

  public init(controllers: [String], tabs: Int, urls: [String], durationsUs: [Int64], scenes: [Int] = [1],
              actions: ActionCatalog = ActionCatalog(), bgTaskRequests: [String] = [], transferSessions: [String] = []) {
    self.controllers = controllers; self.tabs = tabs; self.urls = urls; self.durationsUs = durationsUs
    self.scenes = scenes
    self.actions = actions
    self.bgTaskRequests = bgTaskRequests; self.transferSessions = transferSessions
  }

  func strings(_ kind: StringDomain) -> [String] {
    switch kind {
    case .controllers: return controllers
    case .urls: return urls
    case .notificationIDs, .notificationActions, .shortcutTypes, .activityTypes: return Self.sampleWords[kind] ?? []
    case .bgTaskRequests: return bgTaskRequests
    case .transferSessions: return transferSessions
    case .continuedTasks: return continuedTasks
    }
  }
}

extension CaseIterable where Self: RawRepresentable, Self.RawValue == String {
  /// Every case's raw value, in declaration order.
  static var words: [String] { allCases.map(\.rawValue) }
  /// `one of "a", "b"`, as a choice's error names them.
  static var oneOf: String { VerbSpec.oneOf(words) }
}

extension VerbSpec {
  /// `one of "a", "b"`: the words of a choice as an error names them.
  public static func oneOf(_ words: [String]) -> String {
    "one of " + words.map { "\"\($0)\"" }.joinedText(separator: ", ")
  }
}
