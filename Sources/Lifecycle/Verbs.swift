import JSON

/// What the user or the system did (a scenario verb), as recorded. Each case has one row in the
/// verb table (`VerbSpec`, in the `Verbs+…` files): a new case makes the compiler point at
/// `spec` and `arguments` below, and its row says everything else about it.
public enum Input: Equatable, Sendable {
  case launch(url: String?)
  case prewarm, home, lock, unlock
  case interrupt(Interruption)
  case endInterrupt(InterruptionEnd)
  case appSwitcher
  case switchTo(other: Bool)
  case forceQuit, memoryWarning, memoryPressure
  case backgroundLaunch(BackgroundEvent)
  case openURL(String)
  case rotate(Orientation)
  case push(String)
  case pop
  case present(String, style: PresentationStyle?, navigation: Bool)
  case dismiss
  case selectTab(Int)
  case swipeBack(cancel: Bool)
  case swipeDown(cancel: Bool)
  case advance(us: Int64)
  /// `disconnect_scene(n)`: UIKit reclaims the background scene `Scene#n`; the process lives.
  case disconnectScene(Int)
  /// `memory_pressure("critical")`: also reclaims an app running in the background.
  case criticalMemoryPressure
  /// `time_change()`: a significant time change (midnight, carrier time update, daylight saving).
  case timeChange
  /// `reboot()`: the device restarts; the next `unlock()` is the first unlock.
  case reboot
  /// `act(name, …)`: a user action of the controller on screen, with its arguments (strings,
  /// numbers, booleans).
  case act(String, arguments: [JSONValue])
  /// A notification arrives while the app is in the foreground (`notify{id=}`).
  case notify(id: String)
  /// The user taps a notification or one of its actions (`"default"`: the notification itself).
  case tapNotification(id: String, action: String, foreground: Bool)
  /// A Home Screen quick action (`quick_action(type)`).
  case quickAction(type: String)
  /// A universal link opens the app (`universal_link(url)`).
  case universalLink(url: String)
  /// An activity handed off from another device (`handoff(type)`).
  case handoff(type: String)
  /// The system runs the pending BGTaskScheduler request with this identifier.
  case bgTask(String)
  /// The device goes on (true) or off (false) external power.
  case power(Bool)
  /// The transfers of this background URL session that have run their time finish.
  case transferDone(String)
  /// The user cancels the running continued task from its Live Activity (`cancel_task(id)`).
  case cancelTask(String)
  /// iPad: the user opens a new window of the app (`open_window { activity, from }`); `from`: the
  /// scene the user acted in.
  case openWindow(activity: String?, from: Int?)
  /// iPad: the user closes the window of `Scene#n` (`close_window(n)`).
  case closeWindow(Int)
  /// iPad: `Scene#n` comes frontmost (`focus(n)`).
  case focus(Int)
  /// iPad: Split View with the two scenes (`side_by_side(a, b)`), b frontmost.
  case sideBySide(Int, Int)
  /// iPad: the user drags the Split View divider (`drag_divider()`).
  case dragDivider
}

extension Input {
  /// The row of the verb table that makes this input.
  public var spec: VerbSpec {
    switch self {
    case .launch: return .launch
    case .prewarm: return .prewarm
    case .home: return .home
    case .lock: return .lock
    case .unlock: return .unlock
    case .interrupt: return .interrupt
    case .endInterrupt: return .endInterrupt
    case .appSwitcher: return .appSwitcher
    case .switchTo: return .switchTo
    case .forceQuit: return .forceQuit
    case .memoryWarning: return .memoryWarning
    case .memoryPressure, .criticalMemoryPressure: return .memoryPressure
    case .backgroundLaunch: return .backgroundLaunch
    case .openURL: return .openURL
    case .rotate: return .rotate
    case .push: return .push
    case .pop: return .pop
    case .present: return .present
    case .dismiss: return .dismiss
    case .selectTab: return .selectTab
    case .swipeBack: return .swipeBack
    case .swipeDown: return .swipeDown
    case .advance: return .advance
    case .disconnectScene: return .disconnectScene
    case .timeChange: return .timeChange
    case .reboot: return .reboot
    case .act: return .act
    case .notify: return .notify
    case .tapNotification: return .tapNotification
    case .quickAction: return .quickAction
    case .universalLink: return .universalLink
    case .handoff: return .handoff
    case .bgTask: return .bgTask
    case .power: return .power
    case .transferDone: return .transferDone
    case .cancelTask: return .cancelTask
    case .openWindow: return .openWindow
    case .closeWindow: return .closeWindow
    case .focus: return .focus
    case .sideBySide: return .sideBySide
    case .dragDivider: return .dragDivider
    }
  }

  /// The arguments as the log records them, under the keys the row declares (`spec.make`
  /// reads them back): the inverse of `make`.
  public var arguments: VerbArguments {
    switch self {
    case let .launch(url): return VerbArguments(url.map { ["url": .text($0)] } ?? [:])
    case .prewarm, .home, .lock, .unlock, .appSwitcher, .forceQuit, .memoryWarning, .memoryPressure, .pop, .dismiss,
         .timeChange, .reboot, .dragDivider:
      return VerbArguments()
    case let .interrupt(i): return VerbArguments(["type": .text(i.rawValue)])
    case let .endInterrupt(e): return VerbArguments(["how": .text(e.rawValue)])
    case let .switchTo(other): return VerbArguments(["to": .text(other ? "other" : "self")])
    case let .backgroundLaunch(e): return VerbArguments(["event": .text(e.rawValue)])
    case let .openURL(url), let .universalLink(url): return VerbArguments(["url": .text(url)])
    case let .rotate(o): return VerbArguments(["orientation": .text(o.rawValue)])
    case let .push(c): return VerbArguments(["class": .text(c)])
    case let .present(c, style, navigation):
      var values: [String: VerbValue] = ["class": .text(c)]
      if let style { values["style"] = .text(style.rawValue) }
      if navigation { values["navigation"] = .flag(true) }
      return VerbArguments(values)
    case let .selectTab(i): return VerbArguments(["index": .number(Int64(i))])
    case let .swipeBack(cancel), let .swipeDown(cancel): return VerbArguments(["cancel": .flag(cancel)])
    case let .advance(us): return VerbArguments(["duration_us": .number(us)])
    case let .disconnectScene(n): return VerbArguments(["scene": .number(Int64(n))])
    case .criticalMemoryPressure: return VerbArguments(["level": .text("critical")])
    case let .act(name, arguments): return VerbArguments(["action": .text(name), "arguments": .list(arguments)])
    case let .notify(id), let .bgTask(id), let .cancelTask(id): return VerbArguments(["id": .text(id)])
    case let .tapNotification(id, action, foreground):
      var values: [String: VerbValue] = ["id": .text(id), "action": .text(action)]
      if foreground { values["foreground"] = .flag(true) }
      return VerbArguments(values)
    case let .quickAction(type), let .handoff(type): return VerbArguments(["type": .text(type)])
    case let .power(on): return VerbArguments(["on": .flag(on)])
    case let .transferDone(session): return VerbArguments(["session": .text(session)])
    case let .openWindow(activity, from):
      var values: [String: VerbValue] = [:]
      if let activity { values["activity"] = .text(activity) }
      if let from { values["from"] = .number(Int64(from)) }
      return VerbArguments(values)
    case let .closeWindow(n), let .focus(n): return VerbArguments(["scene": .number(Int64(n))])
    case let .sideBySide(a, b): return VerbArguments(["a": .number(Int64(a)), "b": .number(Int64(b))])
    }
  }

  /// The scenario verb's name.
  public var verb: String { spec.name }
}

extension VerbSpec {
  /// The scenario verbs, in the order the docs list them.
  public static let all: [VerbSpec] = [
    .launch, .prewarm, .home, .lock, .unlock, .interrupt, .endInterrupt, .appSwitcher, .switchTo, .forceQuit,
    .memoryWarning, .memoryPressure, .backgroundLaunch, .openURL, .rotate, .push, .pop, .present, .dismiss, .selectTab,
    .swipeBack, .swipeDown, .advance, .disconnectScene, .timeChange, .reboot, .act, .notify, .tapNotification,
    .quickAction, .universalLink, .handoff, .bgTask, .power, .transferDone, .cancelTask,
    .openWindow, .closeWindow, .focus, .sideBySide, .dragDivider,
  ]

  /// The iPad's window verbs (Verbs+Windows.swift), last in `all`.
  static let windows: [VerbSpec] = [.openWindow, .closeWindow, .focus, .sideBySide, .dragDivider]

  /// The verbs a random run draws from on `profile`'s device: the window verbs only on an iPad, so
  /// a run on an iPhone draws from the same verbs, in the same order, as before they existed.
  public static func drawn(on profile: Profile) -> [VerbSpec] {
    profile.device == .ipad ? all : all.filter { spec in !windows.contains { $0.name == spec.name } }
  }

  /// The spec whose Lua name is `name`.
  public static func named(_ name: String) -> VerbSpec? { all.first { $0.name == name } }

  /// A verb with no arguments that makes `input`.
  static func plain(_ name: String, _ input: Input, doc: String, refusal: @escaping Refusal = { _ throws(ScenarioError) in },
                    sequence: @escaping Sequence, deviceChange: @escaping DeviceChange = { _, _ in }) -> VerbSpec {
    VerbSpec(name, doc: doc, make: { _ in input }, refusal: refusal, sequence: sequence, deviceChange: deviceChange)
  }

  /// A verb whose one argument is a case of `E`, recorded under `key`.
  static func choosing<E: RawRepresentable & CaseIterable & Sendable>(
    _ name: String, key: String, _: E.Type, doc: String, _ input: @escaping @Sendable (E) -> Input,
    refusal: @escaping Refusal = { _ throws(ScenarioError) in }, sequence: @escaping Sequence,
    deviceChange: @escaping DeviceChange = { _, _ in }
  ) -> VerbSpec where E.RawValue == String {
    VerbSpec(name, [.choice(key: key, words: E.words, expected: E.oneOf)], doc: doc,
             make: { $0.text(key).flatMap(E.init(rawValue:)).map(input) },
             refusal: refusal, sequence: sequence, deviceChange: deviceChange)
  }
}
