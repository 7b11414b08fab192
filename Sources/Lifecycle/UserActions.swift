import JSON

/// The user actions an app declares on its controllers (`controller "Editor" { actions = { … } }`)
/// and the argument lists explore calls each one with. `act(name, …)` calls an action of the
/// controller on screen; the verb table draws its candidates from here.
public struct ActionCatalog: Equatable, Sendable {
  /// Action names per controller class, each list in name order.
  public var byController: [String: [String]]
  /// The argument lists explore passes an action (after the controller); an action not
  /// listed here is called with no arguments.
  public var argumentLists: [String: [[JSONValue]]]

  public init(byController: [String: [String]] = [:], argumentLists: [String: [[JSONValue]]] = [:]) {
    self.byController = byController; self.argumentLists = argumentLists
  }

  /// The actions instances of `controllerClass` declare, in name order.
  public func actions(of controllerClass: String) -> [String] { byController[controllerClass] ?? [] }

  /// Every action any controller declares, once, in name order.
  public var names: [String] { Set(byController.values.joined()).sorted() }

  /// The argument lists `name` is called with: the listed ones, else one empty list.
  public func arguments(of name: String) -> [[JSONValue]] {
    guard let lists = argumentLists[name], !lists.isEmpty else { return [[]] }
    return lists
  }

  /// Every action call explore may make: each action with each of its argument lists.
  public var calls: [Input] {
    names.flatMap { name in arguments(of: name).map { Input.act(name, arguments: $0) } }
  }
}

/// The rules for `act`'s arguments and the words of its refusals.
public enum UserAction {
  /// The most values one `act` passes after the name.
  public static let argumentsMax = 64

  /// Whether `value` can be passed to an action: a string, a number or a boolean.
  public static func isArgument(_ value: JSONValue) -> Bool {
    switch value {
    case .string, .int, .bool: return true
    case let .double(d): return d.isFinite
    case .null, .array, .object: return false
    }
  }

  /// The callback's payload: the action's name and its arguments (`{"action":"type","arguments":["hello"]}`).
  public static func payload(_ name: String, _ arguments: [JSONValue]) -> JSONValue {
    .object([("action", .string(name)), ("arguments", .array(arguments))])
  }

  /// The action's name and arguments read back from a `userAction` callback's payload.
  public static func call(in payload: JSONValue?) -> (name: String, arguments: [JSONValue])? {
    guard let name = payload?["action"]?.stringValue else { return nil }
    return (name, payload?["arguments"]?.arrayValue ?? [])
  }

  /// Why `controller` (its label) cannot perform `name`: it declares other actions, or none.
  static func undeclared(_ name: String, controller: String, declared: [String]) -> String {
    guard !declared.isEmpty else { return "\(controller) declares no actions" }
    let near = nearest(name, in: declared).map { " (did you mean \($0)?)" } ?? ""
    return "\(controller) has no action \"\(name)\"\(near); its actions: \(declared.joined(separator: ", "))"
  }
}
