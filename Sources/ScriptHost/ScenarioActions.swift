import JSON
import Lifecycle
import LuaRuntime

extension ScenarioHost {
  /// `act(name, …)`'s values after the name, from stack index `first` on: strings, finite
  /// numbers and booleans, at most `UserAction.argumentsMax`. Anything else is a script error
  /// naming its position in the call.
  func actionArguments(_ vm: LuaVM, from first: Int32, _ verb: String) throws -> [JSONValue] {
    guard vm.top - first < Int32(UserAction.argumentsMax) else {
      throw scriptError(vm, "\(verb): at most \(UserAction.argumentsMax) values may follow the action's name, not \(vm.top - first + 1)")
    }
    var values: [JSONValue] = []
    var idx = first
    while idx <= vm.top {
      var value: JSONValue?
      switch vm.type(idx) {
      case .string: value = vm.string(idx).map(JSONValue.string)
      case .boolean: value = .bool(vm.bool(idx))
      case .number:
        if vm.isInteger(idx), let i = vm.integer(idx) { value = .int(i) }
        else if let d = vm.number(idx), d.isFinite { value = .double(d) }
      case .none, .nil, .lightUserdata, .table, .function, .userdata, .thread: break
      }
      guard let value else {
        throw scriptError(vm, "\(verb): argument \(idx) must be a string, a finite number or a boolean, not \(vm.describeValue(idx))")
      }
      values.append(value)
      idx += 1
    }
    return values
  }
}
