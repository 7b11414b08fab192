import JSON

extension Simulator {
  /// `act(name, …)`: the user performs an action of the controller on screen. InputRules has
  /// checked that the app is active and frontmost and that the controller declares it. The
  /// action runs as app code on the main thread (the foreground hang watchdog applies), recorded
  /// as a `userAction` callback on the controller whose payload names the action and its arguments.
  func performAction(_ name: String, arguments: [JSONValue]) throws(ProcessEnded) {
    guard let top = inPlace({ $0.topController }) else { return }
    let target = state.label(top)
    let callArguments = CallbackArguments(payload: UserAction.payload(name, arguments))
    emit(.callbackDelivered(.userAction, target: target, handled: true, depth: depth, arguments: callArguments))
    try runApp(.callback(.userAction, target: target, arguments: callArguments), name: Callback.userAction.signature,
               target: target)
  }
}
