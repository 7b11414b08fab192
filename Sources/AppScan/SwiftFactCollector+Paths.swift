import SwiftSyntax

extension SwiftFactCollector {
  /// The lines of the paths after a `beginBackgroundTask` that leave without ending the task:
  /// followed only when the code after the call, in the block that holds it, ends the task
  /// itself (a task ended by another method is not followed), and only for a task held by a
  /// name the statement binds (`let id = …`, `taskID = …`, `self.taskID = …`).
  func openExitsAfterBegin(_ call: FunctionCallExprSyntax) -> [Int] {
    guard pathWalksLeft > 0, let item = Self.enclosingItem(of: Syntax(call)), let list = item.parent?.as(CodeBlockItemListSyntax.self),
          let (name, isLocal) = heldName(item) else { return [] }
    pathWalksLeft -= 1
    let after = Array(list.drop(while: { $0.id != item.id }).dropFirst())
    var rule = ExitPathRule(closingCall: "endBackgroundTask", name: name, isLocal: isLocal, scopeThrows: scopeThrows(list))
    rule.localClosers = Self.localClosers(in: Array(list), closingCall: rule.closingCall)
    guard after.contains(where: { WorkUseFinder.find(in: Syntax($0), rule: rule).closes }) else { return [] }
    var walker = ExitPathWalker(rule: rule, converter: converter)
    walker.walkScope(after, openLine: place(item).line)
    var exits = walker.exits
    for item in after { exits += closureExits(in: Syntax(item), rule: rule) }
    return exits
  }

  /// Each closure that itself calls the closing call must close on all its paths: the code
  /// around it has left the work to it.
  func closureExits(in node: Syntax, rule: ExitPathRule) -> [Int] {
    var exits: [Int] = []
    for closure in ClosingClosureFinder.closures(in: node, closingCalls: rule.localClosers.union([rule.closingCall])) {
      var closureRule = ExitPathRule(closingCall: rule.closingCall, name: rule.name, isLocal: rule.isLocal, scopeThrows: false)
      closureRule.localClosers = rule.localClosers
      var walker = ExitPathWalker(rule: closureRule, converter: converter)
      walker.walkScope(Array(closure.statements), openLine: place(closure).line)
      exits += walker.exits
    }
    return exits
  }

  /// The functions declared among `statements` (not deeper) that call `closingCall`, at any
  /// depth of their body, or call another such function: `func complete() { DispatchQueue.main
  /// .async { task.setTaskCompleted(success: true) } }`. At most 64 are followed.
  static func localClosers(in statements: [CodeBlockItemSyntax], closingCall: String) -> Set<String> {
    let nested = statements.compactMap { $0.item.as(FunctionDeclSyntax.self) }.prefix(64)
      .compactMap { function in function.body.map { (function.name.text, CallNameFinder.names(in: Syntax($0))) } }
    var closers: Set<String> = []
    // Each round adds at least one function or stops: at most one round per function.
    for _ in 0...nested.count {
      let found = nested.filter { $0.1.contains(closingCall) || !$0.1.isDisjoint(with: closers) }.map(\.0)
      guard found.count > closers.count else { break }
      closers = Set(found)
    }
    return closers
  }

  /// The statement a node sits in: the nearest code-block item above it.
  static func enclosingItem(of node: Syntax) -> CodeBlockItemSyntax? {
    var current = node.parent
    for _ in 0..<64 {
      guard let node = current else { return nil }
      if let item = node.as(CodeBlockItemSyntax.self) { return item }
      if node.is(ClosureExprSyntax.self) || node.is(FunctionDeclSyntax.self) { return nil }
      current = node.parent
    }
    return nil
  }

  /// The name a statement binds the value to, and whether it is the function's own.
  private func heldName(_ item: CodeBlockItemSyntax) -> (String, Bool)? {
    if let declaration = item.item.as(VariableDeclSyntax.self), declaration.bindings.count == 1,
       let name = declaration.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
      return (name, true)
    }
    let expression = item.item.as(ExpressionStmtSyntax.self)?.expression ?? item.item.as(ExprSyntax.self)
    guard let sequence = expression?.as(SequenceExprSyntax.self), case let elements = Array(sequence.elements),
          elements.count >= 3, elements[1].is(AssignmentExprSyntax.self) else { return nil }
    if let reference = elements[0].as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      return (name, localNames.last?.contains(name) == true)
    }
    if let member = elements[0].as(MemberAccessExprSyntax.self), member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" {
      return (member.declName.baseName.text, false)
    }
    return nil
  }

  /// Whether the function whose body holds `list` throws (a closure's does not count).
  private func scopeThrows(_ list: CodeBlockItemListSyntax) -> Bool {
    guard let function = list.parent?.parent?.as(FunctionDeclSyntax.self) else { return false }
    return function.signature.effectSpecifiers?.throwsClause != nil
  }

  /// `x.expirationHandler = value`: the value assigned, else nil.
  static func expirationHandlerAssignment(_ sequence: SequenceExprSyntax) -> ExprSyntax? {
    let elements = Array(sequence.elements)
    guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self),
          elements[0].as(MemberAccessExprSyntax.self)?.declName.baseName.text == "expirationHandler" else { return nil }
    return elements[2]
  }
}

/// The closures under a node whose own statements (not a closure within them) call one of the
/// closing calls (the closing call, or a nested function that makes it), an expiration
/// handler's closure excepted.
final class ClosingClosureFinder: SyntaxVisitor {
  private let closingCalls: Set<String>
  private var found: [ClosureExprSyntax] = []

  static func closures(in node: Syntax, closingCalls: Set<String>) -> [ClosureExprSyntax] {
    let finder = ClosingClosureFinder(closingCalls: closingCalls)
    finder.walk(node)
    return finder.found
  }

  private init(closingCalls: Set<String>) {
    self.closingCalls = closingCalls
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
    if closingCalls.contains(where: { DirectCallFinder.calls($0, in: node) }) { found.append(node) }
    return .visitChildren
  }

  override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
    SwiftFactCollector.expirationHandlerAssignment(node) == nil ? .visitChildren : .skipChildren
  }

  override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}

/// Whether a closure's own body calls a name: calls inside a closure within it (run later, or
/// elsewhere) or inside a function declared in it (run when called) do not count.
final class DirectCallFinder: SyntaxVisitor {
  private let name: String
  private let entersClosures: Bool
  private var found = false

  static func calls(_ name: String, in closure: ClosureExprSyntax) -> Bool { calls(name, in: Syntax(closure.statements)) }

  /// Whether `node` calls `name`: in its own code, or (`entersClosures`) in the closures it holds too.
  static func calls(_ name: String, in node: Syntax, entersClosures: Bool = false) -> Bool {
    let finder = DirectCallFinder(name, entersClosures: entersClosures)
    finder.walk(node)
    return finder.found
  }

  private init(_ name: String, entersClosures: Bool) {
    self.name = name
    self.entersClosures = entersClosures
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { entersClosures ? .visitChildren : .skipChildren }

  /// A function declared in the code runs when it is called, not where it is written.
  override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    if SwiftFactCollector.calleeName(node.calledExpression) == name { found = true }
    return found ? .skipChildren : .visitChildren
  }
}
