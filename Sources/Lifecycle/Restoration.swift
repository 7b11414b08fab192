import JSON

/// A change to what survives a process for state restoration (docs/model.md §17), as recorded:
/// the fold keeps the scene session's activity and the view-controller archive from these alone.
public enum RestorationChange: Equatable, Sendable {
  /// `stateRestorationActivity(for:)` returned this activity: the scene session keeps it.
  /// `session` is the session's number, recorded once the app has had several scenes (nil: the
  /// front scene's session, or the only one).
  case activitySaved(JSONValue, session: Int? = nil)
  /// The session's activity is gone: the delegate returned nil, the user closed the window, or
  /// force quit the app.
  case activityDeleted(why: String, session: Int? = nil)
  /// View-controller restoration wrote its archive.
  case archiveWritten(RestorationArchive)
  /// The archive is gone: a force quit, or a process that died before its launch finished.
  case archiveDeleted(why: String)

  /// The transition's name in the log.
  public var name: String {
    switch self {
    case .activitySaved: return "restorationActivitySaved"
    case .activityDeleted: return "restorationActivityDeleted"
    case .archiveWritten: return "restorationArchiveWritten"
    case .archiveDeleted: return "restorationArchiveDeleted"
    }
  }
}

/// What view-controller ("legacy") restoration preserved: the application's coder and every
/// controller that took part, parents first, each with the coder its `encodeRestorableState` filled.
public struct RestorationArchive: Equatable, Sendable {
  /// What `willEncodeRestorableStateWith` wrote in the application's coder.
  public var appCoder: JSONValue
  /// The tab selected when it was written (0-based; 0 without a tab bar).
  public var selectedTab: Int
  public var controllers: [PreservedController]

  public init(appCoder: JSONValue, selectedTab: Int, controllers: [PreservedController]) {
    self.appCoder = appCoder; self.selectedTab = selectedTab; self.controllers = controllers
  }

  /// Its controllers' restoration paths in words (`list, list/sheet`), for traces and state dumps.
  public var pathsText: String {
    controllers.isEmpty ? "no controllers" : controllers.map { $0.path.joined(separator: "/") }.joined(separator: ", ")
  }
}

/// One controller in a restoration archive.
public struct PreservedController: Equatable, Sendable {
  /// Where the controller sat in the window.
  public enum Place: Equatable, Sendable {
    /// In the root stack of tab `tab` (0 without a tab bar), `position` from the bottom (0: the root).
    case root(tab: Int, position: Int)
    /// In presented level `level` (0: the lowest), `position` from the bottom of its stack; the
    /// level's style and whether it is a navigation controller.
    case presented(level: Int, position: Int, style: PresentationStyle, navigation: Bool)
  }

  public var className: String
  public var identifier: String
  /// Restoration identifiers from the outermost ancestor that takes part down to this controller.
  public var path: [String]
  public var place: Place
  /// What its `encodeRestorableState(with:)` wrote.
  public var coder: JSONValue

  public init(className: String, identifier: String, path: [String], place: Place, coder: JSONValue) {
    self.className = className; self.identifier = identifier; self.path = path; self.place = place; self.coder = coder
  }
}

extension Profile {
  /// When a scene is asked for its restoration activity as it moves to the background (docs/model.md §17).
  public enum RestorationRequestPlacement: String, Sendable, CaseIterable {
    /// Before the scene's state changes: sceneWillResignActive → stateRestorationActivity → sceneDidEnterBackground (default).
    case beforeDidEnterBackground
    /// After sceneDidEnterBackground and its notifications, before the snapshot.
    case afterDidEnterBackground
  }
}

extension LifecycleState {
  /// The fold's part for restoration: what survives the process (never reset by a termination).
  mutating func evolve(restoration change: RestorationChange) {
    switch change {
    case let .activitySaved(activity, session): changeRestorationActivity(of: session, to: activity)
    case let .activityDeleted(_, session): changeRestorationActivity(of: session, to: nil)
    case let .archiveWritten(archive): restorationArchive = archive
    case .archiveDeleted: restorationArchive = nil
    }
  }
}

extension RestorationArchive {
  /// The archive as the `restorationArchiveWritten` event records it.
  public var json: JSONValue {
    .object([("app", appCoder), ("selectedTab", .int(Int64(selectedTab))),
             ("controllers", .array(controllers.map(\.json)))])
  }

  /// Reads an archive back from its log form; nil when it is not one.
  public init?(json: JSONValue) {
    guard let app = json["app"], let tab = json["selectedTab"]?.intValue,
          let list = json["controllers"]?.arrayValue else { return nil }
    var controllers: [PreservedController] = []
    for item in list {
      guard let c = PreservedController(json: item) else { return nil }
      controllers.append(c)
    }
    self.init(appCoder: app, selectedTab: Int(tab), controllers: controllers)
  }
}

extension PreservedController {
  var json: JSONValue {
    var members: [(String, JSONValue)] = [("class", .string(className)), ("identifier", .string(identifier)),
                                          ("path", .array(path.map(JSONValue.string)))]
    switch place {
    case let .root(tab, position):
      members += [("tab", .int(Int64(tab))), ("position", .int(Int64(position)))]
    case let .presented(level, position, style, navigation):
      members += [("level", .int(Int64(level))), ("position", .int(Int64(position))), ("style", .string(style.rawValue)),
                  ("navigation", .bool(navigation))]
    }
    members.append(("coder", coder))
    return .object(members)
  }

  init?(json: JSONValue) {
    guard let cls = json["class"]?.stringValue, let identifier = json["identifier"]?.stringValue,
          let path = json["path"]?.arrayValue?.compactMap(\.stringValue), let position = json["position"]?.intValue,
          let coder = json["coder"] else { return nil }
    let place: Place
    if let tab = json["tab"]?.intValue {
      place = .root(tab: Int(tab), position: Int(position))
    } else if let level = json["level"]?.intValue, let style = json["style"]?.stringValue.flatMap(PresentationStyle.init(rawValue:)),
              let navigation = json["navigation"]?.boolValue {
      place = .presented(level: Int(level), position: Int(position), style: style, navigation: navigation)
    } else {
      return nil
    }
    self.init(className: cls, identifier: identifier, path: path, place: place, coder: coder)
  }
}

// MARK: - Which controllers take part

/// A controller of the window that takes part in preservation, with where it sits.
struct PreservationEntry {
  var id: Int
  var identifier: String
  var path: [String]
  var place: PreservedController.Place
}

extension LifecycleState {
  /// The window's controllers that take part in preservation, parents first (each tab's stack
  /// bottom to top, tabs in order, then the presented levels bottom to top). A controller takes
  /// part when it and every ancestor have a restoration identifier (`identifier` of its class).
  /// The containers are UIKit's and count as identified; a presented level's ancestor is the
  /// controller on top beneath it, so a level over a controller without one is skipped, and
  /// every level above it.
  func preservationEntries(identifier: (String) -> String?) -> [PreservationEntry] {
    guard let window = frontWindow else { return [] }
    var entries: [PreservationEntry] = []
    func pathIfTakingPart(_ id: Int, under parentPath: [String]) -> [String]? {
      guard let cls = controllers[id]?.className, let own = identifier(cls) else { return nil }
      return parentPath + [own]
    }
    for (tab, stack) in window.tabs.enumerated() {
      for (position, id) in stack.enumerated() {
        if let path = pathIfTakingPart(id, under: []), let own = path.last {
          entries.append(PreservationEntry(id: id, identifier: own, path: path, place: .root(tab: tab, position: position)))
        }
      }
    }
    // The presenter of the lowest level is the selected tab's top.
    var presenterPath: [String]? = window.tabs[window.selectedTab].last.flatMap { pathIfTakingPart($0, under: []) }
    for (level, presentation) in window.presented.enumerated() {
      guard let parent = presenterPath else { break }
      var top: [String]?
      for (position, id) in presentation.stack.enumerated() {
        guard let path = pathIfTakingPart(id, under: parent), let own = path.last else { continue }
        entries.append(PreservationEntry(id: id, identifier: own, path: path,
                                         place: .presented(level: level, position: position, style: presentation.style,
                                                           navigation: presentation.navigation)))
        if id == presentation.stack.last { top = path }
      }
      presenterPath = top
    }
    return entries
  }
}
