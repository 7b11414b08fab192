import SwiftSyntax

/// What a path walk follows: a piece of work that must be closed on every path (a background
/// task ended, a BGTask completed), the call that closes it and the name it is held by.
struct ExitPathRule {
  /// The call that closes the work: `endBackgroundTask`, `setTaskCompleted`.
  let closingCall: String
  /// The name the work is held by (`taskID`, `task`). Any other use of it may close the work
  /// where the scan cannot see (it is handed on), so a use ends the walk of that path.
  let name: String
  /// The name is a local or a parameter: only its uses can close the work. A property may be
  /// closed by any method of the type, so then any call of the type's own ends the walk.
  let isLocal: Bool
  /// The scope is a throwing function: a `try` outside a `do` leaves it with the error.
  let scopeThrows: Bool
  /// Functions nested in the scope that close the work when called (`func complete(_ ok: Bool)
  /// { task.setTaskCompleted(success: ok) }`): a call of one closes it as the closing call does.
  var localClosers: Set<String> = []
}

/// Walks the statements of one scope and finds each path that leaves it while the work is
/// still open: a `return`, a `throw`, a `try` whose error leaves it, the else of a `guard`, or the end
/// of the scope reached along a branch that skipped the closing call.
///
/// It decides only what the code shows: a path on which the name is used, or (for a property)
/// the type's own code is called, is not followed further. Branches are merged without
/// correlating their conditions. The state is the line to blame for an open path, nil when no
/// path reaching this point is open.
struct ExitPathWalker {
  let rule: ExitPathRule
  let converter: SourceLocationConverter
  /// The lines of the paths that leave the scope open, in the order found.
  private(set) var exits: [Int] = []
  private var doDepth = 0

  init(rule: ExitPathRule, converter: SourceLocationConverter) {
    self.rule = rule
    self.converter = converter
  }

  /// Walks `items` with a path open since `openLine`; a path still open at their end is blamed
  /// on the line the state names.
  mutating func walkScope(_ items: [CodeBlockItemSyntax], openLine: Int) {
    if let open = walk(items, open: openLine) { note(open) }
  }

  private mutating func note(_ line: Int) {
    if !exits.contains(line) { exits.append(line) }
  }

  private func line(_ node: some SyntaxProtocol) -> Int {
    node.startLocation(converter: converter, afterLeadingTrivia: true).line
  }

  private mutating func walk(_ items: some Sequence<CodeBlockItemSyntax>, open: Int?) -> Int? {
    var open = open
    for item in items { open = statement(Syntax(item.item), open: open) }
    return open
  }

  private mutating func block(_ block: CodeBlockSyntax, open: Int?) -> Int? { walk(block.statements, open: open) }

  private mutating func statement(_ node: Syntax, open: Int?) -> Int? {
    if let expression = node.as(ExpressionStmtSyntax.self) { return statement(Syntax(expression.expression), open: open) }
    if let exit = node.as(ReturnStmtSyntax.self) { return leave(exit, value: exit.expression.map(Syntax.init), open: open) }
    // A `throw` inside a `do` that catches goes to a `catch`, walked from the state before the `do`.
    if let exit = node.as(ThrowStmtSyntax.self) { return doDepth > 0 ? nil : leave(exit, value: Syntax(exit.expression), open: open) }
    if let guarded = node.as(GuardStmtSyntax.self) {
      // A condition that uses the name (`guard let refresh = task as? BGAppRefreshTask`) hands it on, on both paths.
      let handsOn = uses(Syntax(guarded.conditions)).closesOrHandsOn
      _ = block(guarded.body, open: handsOn || Self.onlyBindsSelf(guarded.conditions) ? nil : open)
      return handsOn ? nil : open
    }
    if let branch = node.as(IfExprSyntax.self) { return ifExpression(branch, open: open) }
    if let choice = node.as(SwitchExprSyntax.self) { return switchExpression(choice, open: open) }
    if let attempt = node.as(DoStmtSyntax.self) { return doStatement(attempt, open: open) }
    if let deferred = node.as(DeferStmtSyntax.self) { return uses(Syntax(deferred.body)).closesOrHandsOn ? nil : open }
    if node.is(FunctionDeclSyntax.self) { return open }   // a nested function runs when it is called
    if node.is(BreakStmtSyntax.self) || node.is(ContinueStmtSyntax.self) { return nil }
    if let body = Self.loopBody(node) {
      let after = block(body, open: open)
      return uses(node).closesOrHandsOn ? nil : (open ?? after)
    }
    let found = uses(node)
    if found.closesOrHandsOn { return nil }
    if found.mayThrowOut, rule.scopeThrows, doDepth == 0, open != nil { note(line(node)) }
    return open
  }

  /// `guard let self`, `guard let strongSelf = self`: taken to hold, as the owner of the work
  /// is alive while its work runs (an app delegate always is).
  private static func onlyBindsSelf(_ conditions: ConditionElementListSyntax) -> Bool {
    conditions.allSatisfy { element in
      guard let binding = element.condition.as(OptionalBindingConditionSyntax.self) else { return false }
      let value = binding.initializer?.value.as(DeclReferenceExprSyntax.self)?.baseName.text
      return value == "self" || (binding.initializer == nil && binding.pattern.trimmedDescription == "self")
    }
  }

  private static func loopBody(_ node: Syntax) -> CodeBlockSyntax? {
    node.as(ForStmtSyntax.self)?.body ?? node.as(WhileStmtSyntax.self)?.body ?? node.as(RepeatStmtSyntax.self)?.body
  }

  /// A `return` or `throw`: the path ends here, open unless what it returns closes the work.
  private mutating func leave(_ exit: some SyntaxProtocol, value: Syntax?, open: Int?) -> Int? {
    if open != nil, !(value.map { uses($0).closesOrHandsOn } ?? false) { note(line(exit)) }
    return nil
  }

  /// Both branches from the state before; a missing `else` is the path that skips the body,
  /// blamed on the `if` when the body closes the work.
  private mutating func ifExpression(_ branch: IfExprSyntax, open: Int?) -> Int? {
    let entry = uses(Syntax(branch.conditions)).closesOrHandsOn ? nil : open
    let then = block(branch.body, open: entry)
    switch branch.elseBody {
    case let .ifExpr(next)?: return then ?? ifExpression(next, open: entry)
    case let .codeBlock(other)?: return then ?? block(other, open: entry)
    case nil: return then ?? (entry == nil ? nil : line(branch))
    }
  }

  private mutating func switchExpression(_ choice: SwitchExprSyntax, open: Int?) -> Int? {
    let entry = uses(Syntax(choice.subject)).closesOrHandsOn ? nil : open
    var after: Int?
    var someCaseCloses = false
    for element in choice.cases {
      guard case let .switchCase(clause) = element else { return nil }   // an `#if` among the cases: not followed
      let end = caseStatements(clause.statements, open: entry)
      if end == nil { someCaseCloses = true }
      after = end ?? after
    }
    // A case that skips what the others do is blamed on the `switch`, as a missing `else` on its `if`.
    return someCaseCloses && after != nil && after == entry ? line(choice) : after
  }

  /// A case's statements; an unlabeled `break` leaves the `switch` with the state it has there.
  private mutating func caseStatements(_ items: CodeBlockItemListSyntax, open: Int?) -> Int? {
    var open = open
    for item in items {
      if let stop = item.item.as(BreakStmtSyntax.self), stop.label == nil { return open }
      open = statement(Syntax(item.item), open: open)
    }
    return open
  }

  /// The `do` body; each `catch` from the state before it (the error may come first).
  private mutating func doStatement(_ attempt: DoStmtSyntax, open: Int?) -> Int? {
    let catches = !attempt.catchClauses.isEmpty
    if catches { doDepth += 1 }
    var after = block(attempt.body, open: open)
    if catches { doDepth -= 1 }
    for clause in attempt.catchClauses { after = block(clause.body, open: open) ?? after }
    return after
  }

  private func uses(_ node: Syntax) -> WorkUseFinder.Found { WorkUseFinder.find(in: node, rule: rule) }
}

/// What a statement does with the work: closes it, hands its name on (or, for a property,
/// calls the type's own code), or can rethrow an error.
final class WorkUseFinder: SyntaxVisitor {
  struct Found {
    /// It calls the closing call.
    var closes = false
    /// It uses the name (or, for a property, calls the type's own code).
    var handsOn = false
    var mayThrowOut = false
    var closesOrHandsOn: Bool { closes || handsOn }
  }

  private let rule: ExitPathRule
  private var found = Found()
  private var closureDepth = 0

  static func find(in node: Syntax, rule: ExitPathRule) -> Found {
    let finder = WorkUseFinder(rule: rule)
    finder.walk(node)
    return finder.found
  }

  private init(rule: ExitPathRule) {
    self.rule = rule
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    let callee = node.calledExpression
    if SwiftFactCollector.calleeName(callee) == rule.closingCall { found.closes = true }
    if let name = callee.as(DeclReferenceExprSyntax.self)?.baseName.text, rule.localClosers.contains(name) { found.closes = true }
    if !rule.isLocal, Self.isOwnCall(callee) { found.handsOn = true }
    return .visitChildren
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    if node.baseName.text == rule.name { found.handsOn = true }
    return .visitChildren
  }

  /// A `try` whose error leaves the statement: not `try?` or `try!`, not inside a closure.
  override func visit(_ node: TryExprSyntax) -> SyntaxVisitorContinueKind {
    if node.questionOrExclamationMark == nil, closureDepth == 0 { found.mayThrowOut = true }
    return .visitChildren
  }

  /// `task.expirationHandler = { … }`: what the expiration handler does is not the path's.
  override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
    SwiftFactCollector.expirationHandlerAssignment(node) == nil ? .visitChildren : .skipChildren
  }

  /// A closure's `try` is its own; its uses of the name still count.
  override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { closureDepth += 1; return .visitChildren }
  override func visitPost(_ node: ClosureExprSyntax) { closureDepth -= 1 }

  override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

  /// `helper()`, `self.helper()`, `self?.helper()`: the enclosing type's own code.
  private static func isOwnCall(_ callee: ExprSyntax) -> Bool {
    if callee.is(DeclReferenceExprSyntax.self) { return true }
    guard let member = callee.as(MemberAccessExprSyntax.self), var base = member.base else { return false }
    if let optional = base.as(OptionalChainingExprSyntax.self) { base = optional.expression }
    return base.as(DeclReferenceExprSyntax.self)?.baseName.text == "self"
  }
}
