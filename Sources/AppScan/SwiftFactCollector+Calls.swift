import SwiftSyntax

extension SwiftFactCollector {
  /// Records what the call tells: the callee (for resolving who calls whom), and the calls a
  /// scan looks for: BGTask registrations, background tasks, windows and root controllers.
  func recordCall(_ call: FunctionCallExprSyntax) {
    guard let name = Self.calleeName(call.calledExpression) else { return }
    let labels = call.arguments.map { $0.label?.text ?? "_" }
    if let current = functionStack.last {
      if let by = currentDeferral {
        facts.functions[current].deferredCalls[name] = by
        facts.functions[current].deferredCalls[Self.selector(name, labels)] = by
      } else {
        facts.functions[current].calls.insert(name)
        facts.functions[current].calls.insert(Self.selector(name, labels))
      }
      // `perform(#selector(work), with: nil, afterDelay: 0)`, a timer's selector: called later.
      if ["perform", "scheduledTimer"].contains(name), labels.contains(where: { ["afterDelay", "selector"].contains($0) }) {
        for argument in call.arguments {
          guard let selector = argument.expression.as(MacroExpansionExprSyntax.self), selector.macroName.text == "selector",
                let target = selector.arguments.first.flatMap({ Self.calleeName($0.expression) }) else { continue }
          facts.functions[current].deferredCalls[target] = name == "perform" ? "perform(_:with:afterDelay:)" : "Timer.scheduledTimer"
        }
      }
    }
    switch (name, labels.first) {
    // BGTaskScheduler's register names `using:` (it has no default); a wrapper's method of that
    // base name without it is the wrapper's, and the call inside it is the one counted.
    case ("register", "forTaskWithIdentifier") where labels.count > 1 && labels[1] == "using":
      let identifier = ownValueUnknown(call.arguments.first.map { Self.identifier($0.expression) } ?? .unknown)
      facts.registrations.append(RegistrationFact(identifier: identifier, function: functionStack.last,
                                                  place: calleePlace(call), isSwiftUIModifier: false, deferredBy: currentDeferral,
                                                  condition: runtimeCondition(of: Syntax(call), chain: call.calledExpression)))
      recordRegisteredHandler(call)
    case ("backgroundTask", _):
      recordBackgroundTaskModifier(call)
    case ("beginBackgroundTask", _):
      recordBeginBackgroundTask(call)
    case ("BGAppRefreshTaskRequest", "identifier"), ("BGProcessingTaskRequest", "identifier"):
      let identifier = ownValueUnknown(call.arguments.first.map { Self.identifier($0.expression) } ?? .unknown)
      facts.taskRequests.append(TaskRequestFact(kind: name == "BGAppRefreshTaskRequest" ? "refresh" : "processing", identifier: identifier))
    case ("UIWindow", "frame"):
      recordFrameWindow(call)
    default:
      break
    }
  }

  /// SwiftUI's `.backgroundTask(.appRefresh("id")) { … }`: a registration the system makes at launch.
  private func recordBackgroundTaskModifier(_ call: FunctionCallExprSyntax) {
    guard let kind = call.arguments.first?.expression.as(FunctionCallExprSyntax.self),
          Self.calleeName(kind.calledExpression) == "appRefresh", let argument = kind.arguments.first else { return }
    facts.registrations.append(RegistrationFact(identifier: scopedInType(Self.identifier(argument.expression)), function: functionStack.last,
                                                place: calleePlace(call), isSwiftUIModifier: true))
  }

  /// `beginBackgroundTask(withName:expirationHandler:)`, the handler as an argument or a trailing closure.
  private func recordBeginBackgroundTask(_ call: FunctionCallExprSyntax) {
    let name = ownValueUnknown(call.arguments.first { $0.label?.text == "withName" }.map { Self.identifier($0.expression) } ?? .unknown)
    let handlerArgument = call.arguments.first { $0.label?.text == "expirationHandler" }?.expression
    let expiration: BackgroundTaskFact.Expiration
    var endsLater = false
    if let closure = call.trailingClosure ?? handlerArgument?.as(ClosureExprSyntax.self) {
      expiration = DirectCallFinder.calls("endBackgroundTask", in: closure) ? .endsTask : .leavesTaskOpen
      endsLater = expiration == .leavesTaskOpen && DirectCallFinder.calls("endBackgroundTask", in: Syntax(closure.statements), entersClosures: true)
    } else if handlerArgument == nil || handlerArgument?.is(NilLiteralExprSyntax.self) == true {
      expiration = .leavesTaskOpen
    } else {
      expiration = .unknown
    }
    var labels = call.arguments.map { $0.label?.text ?? "_" }
    if call.trailingClosure != nil { labels.append("expirationHandler") }
    var fact = BackgroundTaskFact(function: functionStack.last, place: calleePlace(call), name: name, expiration: expiration,
                                  selector: Self.selector("beginBackgroundTask", labels), openExits: openExitsAfterBegin(call))
    fact.expirationEndsLater = endsLater
    facts.backgroundTasks.append(fact)
    pendingReceivers.append((facts.backgroundTasks.count - 1, Self.receiverName(call.calledExpression), typeStack.last == "UIApplication"))
  }

  /// The receiver as written: nil for an unqualified call, `UIApplication.shared`, or a name
  /// (`app`, `self.application` as `application`); `?` for anything else.
  private static func receiverName(_ callee: ExprSyntax) -> String? {
    guard let member = callee.as(MemberAccessExprSyntax.self) else { return nil }
    var base = member.base
    while let forced = base?.as(ForceUnwrapExprSyntax.self) { base = forced.expression }
    guard let base else { return "?" }
    if let name = base.as(DeclReferenceExprSyntax.self) { return name.baseName.text }
    if isMember(base, "shared", of: "UIApplication") { return "UIApplication.shared" }
    if let inner = base.as(MemberAccessExprSyntax.self), inner.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" {
      return inner.declName.baseName.text
    }
    return "?"
  }

  /// Classifies each `beginBackgroundTask`'s receiver once the whole file is read (a property
  /// may be declared below its use).
  func resolveReceivers() {
    for (index, name, inApplicationExtension) in pendingReceivers {
      let receiver: CallReceiver
      switch name {
      case nil, "self"?: receiver = inApplicationExtension ? .application : .ownType
      case let name?: receiver = name == "UIApplication.shared" || applicationNames.contains(name) ? .application : .unknown
      }
      facts.backgroundTasks[index].receiver = receiver
    }
  }

  /// The API whose closure argument runs after the code around it returns, for a closure
  /// given to it (as its trailing closure or an argument); nil for any other closure.
  static func deferringCall(of closure: ClosureExprSyntax) -> String? {
    var node = closure.parent
    if node?.is(LabeledExprSyntax.self) == true || node?.is(MultipleTrailingClosureElementSyntax.self) == true { node = node?.parent?.parent }
    guard let call = node?.as(FunctionCallExprSyntax.self), let name = calleeName(call.calledExpression) else { return nil }
    guard deferringNames.contains(name) || (name == "Task" && call.calledExpression.is(DeclReferenceExprSyntax.self)) else { return nil }
    let written = call.calledExpression.trimmedDescription
    return written.utf8.count <= 60 && !written.contains("\n") ? written : name
  }

  /// Calls that run their closure later: the main queue's and other queues' `async`, `Task`,
  /// `OperationQueue.addOperation`, `RunLoop.perform`, timers, and the completion handlers of
  /// notification authorisation and observers.
  static let deferringNames: Set<String> = ["async", "asyncAfter", "detached", "addOperation", "addBarrierBlock", "perform",
                                            "scheduledTimer", "requestAuthorization", "getNotificationSettings", "addObserver"]

  /// A bare name the function around the call binds (a parameter, a local) is its own value,
  /// unknown here, never a constant that happens to share the name; any other bare name is
  /// looked up from the type the call is written in (`scopedInType`).
  private func ownValueUnknown(_ expression: IdentifierExpression) -> IdentifierExpression {
    guard case let .reference(name) = expression, !name.contains("."), localNames.last?.contains(name) == true else {
      return scopedInType(expression)
    }
    return .unknown
  }

  /// `expression` with each bare name (`x`, `self.x`, `Self.x`) marked with the type it is
  /// written in, so it resolves to that type's constant before one of the same name elsewhere.
  func scopedInType(_ expression: IdentifierExpression) -> IdentifierExpression {
    guard !typeStack.isEmpty else { return expression }
    switch expression {
    case let .reference(name):
      let bare = ["self.", "Self."].reduce(name) { $0.hasPrefix($1) ? String($0.dropFirst($1.count)) : $0 }
      return bare.contains(".") ? expression : .scoped(bare, scope: typeStack.joined(separator: "."))
    case let .concatenation(parts): return .concatenation(parts.map(scopedInType))
    case .literal, .scoped, .bundleIdentifier, .unknown: return expression
    }
  }

  /// The line of the called name: a chain's `.register(` rather than the start of the chain.
  func calleePlace(_ call: FunctionCallExprSyntax) -> SourcePlace {
    call.calledExpression.as(MemberAccessExprSyntax.self).map { place($0.declName) } ?? place(call)
  }

  /// `foo` for `foo(…)`, `x.y.foo(…)` and `.foo(…)`; nil for anything else (a closure called at once).
  static func calleeName(_ expression: ExprSyntax) -> String? {
    if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
    if let member = expression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
    if let generic = expression.as(GenericSpecializationExprSyntax.self) { return calleeName(generic.expression) }
    return nil
  }

  /// A literal, a name (`refreshID`, `Tasks.refresh`, `Tasks.refresh.rawValue`), text joined
  /// from such parts with `+` or interpolation, the bundle identifier, or unknown.
  static func identifier(_ expression: ExprSyntax, depth: Int = 0) -> IdentifierExpression {
    guard depth < 16 else { return .unknown }
    if let text = literal(expression) { return .literal(text) }
    if let string = expression.as(StringLiteralExprSyntax.self), string.openingPounds == nil { return interpolation(string, depth: depth) }
    if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
      return identifier(only.expression, depth: depth + 1)
    }
    if let sequence = expression.as(SequenceExprSyntax.self) { return concatenation(sequence, depth: depth) }
    // Only a name can be one: anything else is not printed to find out (a scan reads every initializer).
    guard expression.is(DeclReferenceExprSyntax.self) || expression.is(MemberAccessExprSyntax.self) || expression.is(ForceUnwrapExprSyntax.self) else {
      return .unknown
    }
    var text = expression.trimmedDescription
    for suffix in ["!", ".rawValue"] where text.hasSuffix(suffix) { text = String(text.dropLast(suffix.count)) }
    if text == "Bundle.main.bundleIdentifier" { return .bundleIdentifier }
    if text.hasPrefix(".") { text.removeFirst() }
    let isName = !text.isEmpty && text.utf8.count <= 200 && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
    return isName ? .reference(text) : .unknown
  }

  /// `"\(prefix).refresh"`: its pieces, each a literal or an identifier; unknown when a piece is.
  private static func interpolation(_ string: StringLiteralExprSyntax, depth: Int) -> IdentifierExpression {
    var parts: [IdentifierExpression] = []
    for segment in string.segments {
      switch segment {
      case let .stringSegment(piece):
        guard !piece.content.text.contains("\\") else { return .unknown }
        parts.append(.literal(piece.content.text))
      case let .expressionSegment(inner):
        guard inner.expressions.count == 1, let only = inner.expressions.first, only.label == nil else { return .unknown }
        parts.append(identifier(only.expression, depth: depth + 1))
      }
    }
    return parts.contains(.unknown) ? .unknown : .concatenation(parts)
  }

  /// `a + b + "c"` (unfolded, as the parser leaves it): its operands, when every operator is `+`.
  private static func concatenation(_ sequence: SequenceExprSyntax, depth: Int) -> IdentifierExpression {
    var parts: [IdentifierExpression] = []
    for (index, element) in sequence.elements.enumerated() {
      if index % 2 == 1 {
        guard element.as(BinaryOperatorExprSyntax.self)?.operator.text == "+" else { return .unknown }
        continue
      }
      let part = identifier(element, depth: depth + 1)
      if case let .concatenation(inner) = part { parts += inner } else { parts.append(part) }
    }
    return parts.contains(.unknown) || parts.count > 64 ? .unknown : .concatenation(parts)
  }

  /// `UNUserNotificationCenter.current().delegate = x` (or through a name bound to the center),
  /// `restorationIdentifier = …`, and `rootViewController = Controller()`.
  func recordAssignment(_ sequence: SequenceExprSyntax) {
    let elements = Array(sequence.elements)
    guard elements.count >= 3, elements[1].is(AssignmentExprSyntax.self) else { return }
    let target = elements[0]
    let member = target.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? target.as(DeclReferenceExprSyntax.self)?.baseName.text
    switch member {
    case "delegate":
      guard let base = target.as(MemberAccessExprSyntax.self)?.base, isNotificationCenter(base) else { return }
      facts.delegateAssignments.append(DelegateAssignmentFact(function: functionStack.last, place: place(sequence), deferredBy: currentDeferral,
                                                              condition: runtimeCondition(of: Syntax(sequence), chain: target)))
    case "restorationIdentifier":
      facts.restorationIdentifiers.append(place(sequence))
    case "rootViewController":
      if let controller = Self.controllerName(elements[2]) { facts.rootControllers.append(controller) }
    case "delegateClass":
      // Only on a name the function bound to a `UISceneConfiguration`: another type's property of that name says nothing.
      guard let base = target.as(MemberAccessExprSyntax.self)?.base?.as(DeclReferenceExprSyntax.self)?.baseName.text,
            let configuration = sceneConfigurationNames[base] else { return }
      facts.delegateClassOverrides.append((configuration, place(sequence)))
    default:
      break
    }
  }

  private func isNotificationCenter(_ base: ExprSyntax) -> Bool {
    var text = base.trimmedDescription
    while text.hasSuffix("?") || text.hasSuffix("!") { text.removeLast() }
    if text.contains("UNUserNotificationCenter") { return true }
    let last = Self.plainTypeName(text)
    return notificationCenterNames.contains(last)
  }

  /// The controller class a root assignment instantiates: `ListViewController()`, or the root
  /// of a `UINavigationController(rootViewController: ListViewController())`.
  static func controllerName(_ expression: ExprSyntax) -> String? {
    guard let call = expression.as(FunctionCallExprSyntax.self), let name = calleeName(call.calledExpression),
          name.first?.isUppercase == true else { return nil }
    if let inner = call.arguments.first(where: { $0.label?.text == "rootViewController" }),
       let root = controllerName(inner.expression) {
      return root
    }
    return name
  }
}
