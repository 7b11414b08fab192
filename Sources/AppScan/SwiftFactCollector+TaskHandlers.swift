import SwiftSyntax

/// A BGTask launch handler as written: the closure given to `register(forTaskWithIdentifier:…)`
/// (or the function it names), or a function that takes a `BGTask`.
package struct TaskHandlerFact: Sendable {
  /// What the handler does about the task's expiration.
  package enum Expiration: Equatable, Sendable {
    /// An expiration handler that completes the task, or may (it cancels work, or calls code).
    case completes
    /// No `expirationHandler` is set and the task is not handed on.
    case missing
    /// An expiration handler that calls nothing but logging: the task stays incomplete.
    case doesNotComplete(line: Int)
    /// The scan cannot follow it: why.
    case notFollowed(String)
  }

  /// The function's base name (`handleAppRefresh`), nil for a closure given to `register`.
  package let functionName: String?
  /// The handler's first line: the function's, or the closure's.
  package let place: SourcePlace
  /// Lines of the paths that leave the handler without calling `setTaskCompleted`.
  package var openExits: [Int]
  package var expiration: Expiration
  /// Functions the handler hands the task to, by base name.
  package var handsTo: [String]
  /// The `register(forTaskWithIdentifier:…)` call this handler was given to, for one given there.
  package var registeredAt: SourcePlace? = nil
}

extension SwiftFactCollector {
  /// The BGTask classes a launch handler receives.
  static let taskTypes: Set<String> = ["BGTask", "BGAppRefreshTask", "BGProcessingTask", "BGHealthResearchTask", "BGContinuedProcessingTask"]

  /// The handler given to a `register(forTaskWithIdentifier:using:launchHandler:)` call: a
  /// closure is read; a function named instead is handed the task.
  func recordRegisteredHandler(_ call: FunctionCallExprSyntax) {
    let argument = call.arguments.first { $0.label?.text == "launchHandler" }?.expression
    guard pathWalksLeft > 0 else { return }
    pathWalksLeft -= 1
    if let closure = call.trailingClosure ?? argument?.as(ClosureExprSyntax.self) {
      let name = Self.closureParameter(closure) ?? "$0"
      var handler = taskHandler(statements: Array(closure.statements), parameter: name, functionName: nil,
                                place: place(closure), throwing: false)
      handler.registeredAt = calleePlace(call)
      facts.taskHandlers.append(handler)
    } else if let argument, let named = Self.calleeName(argument) {
      facts.taskHandlers.append(TaskHandlerFact(functionName: nil, place: place(call), openExits: [],
                                                expiration: .notFollowed("the handler is \(named), a function value"), handsTo: [named],
                                                registeredAt: calleePlace(call)))
    }
  }

  /// A function that takes a BGTask: a launch handler when a registration hands it the task.
  func recordTaskFunction(_ node: FunctionDeclSyntax) {
    guard pathWalksLeft > 0, let body = node.body, let parameter = node.signature.parameterClause.parameters.first(where: {
      Self.taskTypes.contains(Self.typeName($0.type))
    }) else { return }
    pathWalksLeft -= 1
    facts.taskHandlers.append(taskHandler(statements: Array(body.statements), parameter: (parameter.secondName ?? parameter.firstName).text,
                                          functionName: node.name.text, place: place(node),
                                          throwing: node.signature.effectSpecifiers?.throwsClause != nil))
  }

  private func taskHandler(statements: [CodeBlockItemSyntax], parameter: String, functionName: String?,
                           place: SourcePlace, throwing: Bool) -> TaskHandlerFact {
    var rule = ExitPathRule(closingCall: "setTaskCompleted", name: parameter, isLocal: true, scopeThrows: throwing)
    rule.localClosers = Self.localClosers(in: statements, closingCall: rule.closingCall)
    var walker = ExitPathWalker(rule: rule, converter: converter)
    walker.walkScope(statements, openLine: place.line)
    var exits = walker.exits
    for item in statements { exits += closureExits(in: Syntax(item), rule: rule) }
    let handOff = TaskHandOffFinder.find(parameter, in: statements, converter: converter)
    // A handler that completes the task itself before it returns, on every path, needs no expiration handler.
    let completesAtOnce = exits.isEmpty && statements.contains { item in
      (rule.localClosers + ["setTaskCompleted"]).contains { DirectCallFinder.calls($0, in: Syntax(item)) }
    }
    var expiration = handOff.handedOn ? TaskHandlerFact.Expiration.notFollowed("the task is handed to code that may set its expiration handler")
      : (completesAtOnce ? .completes : .missing)
    if let (line, value) = handOff.expirationHandler { expiration = expirationVerdict(value, line: line, closers: rule.localClosers) }
    return TaskHandlerFact(functionName: functionName, place: place, openExits: exits, expiration: expiration, handsTo: handOff.callees)
  }

  /// A closure that completes the task (at any depth) completes it; one that calls nothing
  /// but logging does not; anything else calls code the scan does not follow.
  /// `closers` are the handler's nested functions that complete the task.
  private func expirationVerdict(_ value: ExprSyntax, line: Int, closers: Set<String>) -> TaskHandlerFact.Expiration {
    if value.is(NilLiteralExprSyntax.self) { return .doesNotComplete(line: line) }
    guard let closure = value.as(ClosureExprSyntax.self) else { return .notFollowed("the expiration handler is a function value") }
    let calls = CallNameFinder.names(in: Syntax(closure))
    if calls.contains("setTaskCompleted") || !calls.isDisjoint(with: closers) { return .completes }
    // `isCancelled = true`: cooperative cancellation, which work the scan does not follow may check.
    if NodeKindFinder.contains(AssignmentExprSyntax.self, in: Syntax(closure)) { return .notFollowed("the expiration handler sets a value that the work may check") }
    let other = calls.subtracting(Self.loggingCalls)
    return other.isEmpty ? .doesNotComplete(line: line) : .notFollowed("the expiration handler calls \(other.sorted().joined(separator: ", "))")
  }

  /// Calls that only log: an expiration handler made of them does nothing for the task.
  static let loggingCalls: Set<String> = ["print", "debugPrint", "NSLog", "os_log", "log", "debug", "info", "notice",
                                          "warning", "error", "fault", "critical", "trace"]

  /// `{ task in … }`, `{ (task: BGTask) in … }`: the closure's first parameter's name.
  static func closureParameter(_ closure: ClosureExprSyntax) -> String? {
    switch closure.signature?.parameterClause {
    case let .simpleInput(names)?: return names.first?.name.text
    case let .parameterClause(clause)?: return (clause.parameters.first?.secondName ?? clause.parameters.first?.firstName)?.text
    case nil: return nil
    }
  }
}

/// What a handler does with its task besides completing it: where it sets the expiration
/// handler, and whether (and to which calls) it hands the task on.
final class TaskHandOffFinder: SyntaxVisitor {
  /// The task's names: the parameter, and the names a cast binds it to.
  private var names: Set<String>
  private let converter: SourceLocationConverter
  private(set) var expirationHandler: (line: Int, value: ExprSyntax)?
  private(set) var handedOn = false
  private(set) var callees: [String] = []

  static func find(_ name: String, in statements: [CodeBlockItemSyntax], converter: SourceLocationConverter) -> TaskHandOffFinder {
    let finder = TaskHandOffFinder(name, converter)
    for item in statements { finder.walk(item) }
    return finder
  }

  private init(_ name: String, _ converter: SourceLocationConverter) {
    names = [name]
    self.converter = converter
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
    guard let value = SwiftFactCollector.expirationHandlerAssignment(node) else { return .visitChildren }
    if expirationHandler == nil {
      expirationHandler = (node.startLocation(converter: converter, afterLeadingTrivia: true).line, value)
    }
    return .skipChildren
  }

  /// A use of the name other than as the base of a member (`task.identifier`) hands it on.
  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    guard names.contains(node.baseName.text), node.parent?.as(MemberAccessExprSyntax.self)?.base?.id != Syntax(node).id else { return .visitChildren }
    // `let refresh = task as? BGAppRefreshTask`: the task under another name, not handed on.
    if let cast = Self.castAround(node), cast.parent?.is(InitializerClauseSyntax.self) == true, let alias = Self.boundName(cast.parent) {
      names.insert(alias)
      return .visitChildren
    }
    handedOn = true
    if let call = Self.enclosingCall(of: Syntax(node)), let callee = SwiftFactCollector.calleeName(call.calledExpression),
       !callees.contains(callee) {
      callees.append(callee)
    }
    return .visitChildren
  }

  /// `task as? T` around a name, folded (`AsExprSyntax`) or as the parser leaves it (a sequence
  /// of the name, `as?` and the type).
  private static func castAround(_ node: DeclReferenceExprSyntax) -> Syntax? {
    if let cast = node.parent?.as(AsExprSyntax.self) { return Syntax(cast) }
    guard let sequence = node.parent?.as(ExprListSyntax.self)?.parent?.as(SequenceExprSyntax.self), sequence.elements.count == 3,
          sequence.elements.first?.id == Syntax(node).id, Array(sequence.elements)[1].is(UnresolvedAsExprSyntax.self) else { return nil }
    return Syntax(sequence)
  }

  /// The name an initializer binds: `let x = …`, `guard let x = …`.
  private static func boundName(_ initializer: Syntax?) -> String? {
    let parent = initializer?.parent
    let pattern = parent?.as(PatternBindingSyntax.self)?.pattern ?? parent?.as(OptionalBindingConditionSyntax.self)?.pattern
    return pattern?.as(IdentifierPatternSyntax.self)?.identifier.text
  }

  /// The call whose argument the node is part of (through casts and parentheses).
  private static func enclosingCall(of node: Syntax) -> FunctionCallExprSyntax? {
    var current = node.parent
    for _ in 0..<6 {
      guard let node = current else { return nil }
      if let argument = node.as(LabeledExprSyntax.self) { return argument.parent?.parent?.as(FunctionCallExprSyntax.self) }
      current = node.parent
    }
    return nil
  }
}

/// The names every call under a node calls.
final class CallNameFinder: SyntaxVisitor {
  private var names: Set<String> = []

  static func names(in node: Syntax) -> Set<String> {
    let finder = CallNameFinder(viewMode: .sourceAccurate)
    finder.walk(node)
    return finder.names
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    if let name = SwiftFactCollector.calleeName(node.calledExpression) { names.insert(name) }
    return .visitChildren
  }
}

/// Whether a node holds a node of one kind (`x = …`, `?.`), optionally not looking into closures.
final class NodeKindFinder: SyntaxAnyVisitor {
  private let kind: any SyntaxProtocol.Type
  private let entersClosures: Bool
  private var found = false

  static func contains(_ kind: any SyntaxProtocol.Type, in node: Syntax, entersClosures: Bool = true) -> Bool {
    let finder = NodeKindFinder(kind, entersClosures)
    finder.walk(node)
    return finder.found
  }

  private init(_ kind: any SyntaxProtocol.Type, _ entersClosures: Bool) {
    self.kind = kind
    self.entersClosures = entersClosures
    super.init(viewMode: .sourceAccurate)
  }

  override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
    if node.is(kind) { found = true }
    return found || (!entersClosures && node.is(ClosureExprSyntax.self)) ? .skipChildren : .visitChildren
  }
}
