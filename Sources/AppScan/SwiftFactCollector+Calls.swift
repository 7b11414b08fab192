import SwiftSyntax

extension SwiftFactCollector {
  /// Records what the call tells: the callee (for resolving who calls whom), and the calls a
  /// scan looks for: BGTask registrations, background tasks, windows and root controllers.
  func recordCall(_ call: FunctionCallExprSyntax) {
    guard let name = Self.calleeName(call.calledExpression) else { return }
    let labels = call.arguments.map { $0.label?.text ?? "_" }
    if let current = functionStack.last {
      facts.functions[current].calls.insert(name)
      facts.functions[current].calls.insert(Self.selector(name, labels))
    }
    switch (name, labels.first) {
    case ("register", "forTaskWithIdentifier"):
      let identifier = call.arguments.first.map { Self.identifier($0.expression) } ?? .unknown
      facts.registrations.append(RegistrationFact(identifier: identifier, function: functionStack.last,
                                                  place: calleePlace(call), isSwiftUIModifier: false))
    case ("backgroundTask", _):
      recordBackgroundTaskModifier(call)
    case ("beginBackgroundTask", _):
      recordBeginBackgroundTask(call)
    case ("UIWindow", "frame"):
      facts.windows.append(WindowFact(owner: typeStack.last, place: place(call)))
    default:
      break
    }
  }

  /// SwiftUI's `.backgroundTask(.appRefresh("id")) { … }`: a registration the system makes at launch.
  private func recordBackgroundTaskModifier(_ call: FunctionCallExprSyntax) {
    guard let kind = call.arguments.first?.expression.as(FunctionCallExprSyntax.self),
          Self.calleeName(kind.calledExpression) == "appRefresh", let argument = kind.arguments.first else { return }
    facts.registrations.append(RegistrationFact(identifier: Self.identifier(argument.expression), function: functionStack.last,
                                                place: calleePlace(call), isSwiftUIModifier: true))
  }

  /// `beginBackgroundTask(withName:expirationHandler:)`, the handler as an argument or a trailing closure.
  private func recordBeginBackgroundTask(_ call: FunctionCallExprSyntax) {
    let name = call.arguments.first { $0.label?.text == "withName" }.map { Self.identifier($0.expression) } ?? .unknown
    let handlerArgument = call.arguments.first { $0.label?.text == "expirationHandler" }?.expression
    let expiration: BackgroundTaskFact.Expiration
    if let closure = call.trailingClosure ?? handlerArgument?.as(ClosureExprSyntax.self) {
      expiration = DirectEndFinder.endsTask(closure) ? .endsTask : .leavesTaskOpen
    } else if handlerArgument == nil || handlerArgument?.is(NilLiteralExprSyntax.self) == true {
      expiration = .leavesTaskOpen
    } else {
      expiration = .unknown
    }
    facts.backgroundTasks.append(BackgroundTaskFact(function: functionStack.last, place: calleePlace(call), name: name,
                                                    expiration: expiration))
  }

  /// The line of the called name: a chain's `.register(` rather than the start of the chain.
  private func calleePlace(_ call: FunctionCallExprSyntax) -> SourcePlace {
    call.calledExpression.as(MemberAccessExprSyntax.self).map { place($0.declName) } ?? place(call)
  }

  /// `foo` for `foo(…)`, `x.y.foo(…)` and `.foo(…)`; nil for anything else (a closure called at once).
  static func calleeName(_ expression: ExprSyntax) -> String? {
    if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
    if let member = expression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
    if let generic = expression.as(GenericSpecializationExprSyntax.self) { return calleeName(generic.expression) }
    return nil
  }

  /// A literal, a name (`refreshID`, `Tasks.refresh`, `Tasks.refresh.rawValue`), or unknown.
  static func identifier(_ expression: ExprSyntax) -> IdentifierExpression {
    if let text = literal(expression) { return .literal(text) }
    var text = expression.trimmedDescription
    if text.hasSuffix(".rawValue") { text = String(text.dropLast(".rawValue".count)) }
    if text.hasPrefix(".") { text.removeFirst() }
    let isName = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
    return isName ? .reference(text) : .unknown
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
      facts.delegateAssignments.append(DelegateAssignmentFact(function: functionStack.last, place: place(sequence)))
    case "restorationIdentifier":
      facts.restorationIdentifiers.append(place(sequence))
    case "rootViewController":
      if let controller = Self.controllerName(elements[2]) { facts.rootControllers.append(controller) }
    default:
      break
    }
  }

  private func isNotificationCenter(_ base: ExprSyntax) -> Bool {
    let text = base.trimmedDescription
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

/// Whether a closure's own body calls `endBackgroundTask`: calls inside a closure within it
/// (`DispatchQueue.main.async { … }`) run later, so they do not count.
final class DirectEndFinder: SyntaxVisitor {
  private var found = false

  static func endsTask(_ closure: ClosureExprSyntax) -> Bool {
    let finder = DirectEndFinder(viewMode: .sourceAccurate)
    finder.walk(closure.statements)
    return finder.found
  }

  override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    if SwiftFactCollector.calleeName(node.calledExpression) == "endBackgroundTask" { found = true }
    return .visitChildren
  }
}
