import SwiftSyntax

/// A condition the code puts around a call within its function, so that some runs skip it.
package struct RuntimeCondition: Equatable, Sendable {
  /// Where the condition is written.
  package let line: Int
  /// How the call depends on it: "inside the `if` at line 12", "after the `guard` at line 9".
  package let description: String
}

extension SwiftFactCollector {
  /// The first runtime condition between a call and the top of its function: an enclosing
  /// `if` or `switch`, an earlier `guard` or `if … { return }` in an enclosing block, or an
  /// optional chain in the call itself. `#available` (BGTaskScheduler and the notification
  /// delegate need iOS 10 and 13 anyway), `#if` (decided when building) and a condition that
  /// names a test (a unit-test host skipping setup) are not counted.
  func runtimeCondition(of node: Syntax, chain: ExprSyntax?) -> RuntimeCondition? {
    if let chain, NodeKindFinder.contains(OptionalChainingExprSyntax.self, in: Syntax(chain), entersClosures: false) {
      return RuntimeCondition(line: place(node).line, description: "through an optional chain, which does nothing when a value is nil")
    }
    var child = node
    var current = node.parent
    for _ in 0..<256 {
      guard let parent = current, !parent.is(FunctionDeclSyntax.self), !parent.is(InitializerDeclSyntax.self),
            !parent.is(AccessorBlockSyntax.self), !parent.is(SourceFileSyntax.self) else { return nil }
      if let branch = parent.as(IfExprSyntax.self), child.id != Syntax(branch.conditions).id, Self.counts(Syntax(branch.conditions)) {
        return RuntimeCondition(line: place(branch).line, description: "inside the `if` at line \(place(branch).line)")
      }
      if let choice = parent.as(SwitchExprSyntax.self), child.id != Syntax(choice.subject).id {
        return RuntimeCondition(line: place(choice).line, description: "inside the `switch` at line \(place(choice).line)")
      }
      if let list = parent.as(CodeBlockItemListSyntax.self), let early = earlyExit(before: child, in: list) { return early }
      child = parent
      current = parent.parent
    }
    return nil
  }

  /// A `guard`, or an `if` whose body returns, before `item` in `list`.
  private func earlyExit(before item: Syntax, in list: CodeBlockItemListSyntax) -> RuntimeCondition? {
    for earlier in list {
      if earlier.id == item.id { return nil }
      if let guarded = earlier.item.as(GuardStmtSyntax.self), Self.counts(Syntax(guarded.conditions)), !Self.neverReturns(guarded.body) {
        return RuntimeCondition(line: place(guarded).line, description: "after the `guard` at line \(place(guarded).line)")
      }
      let expression = earlier.item.as(ExpressionStmtSyntax.self)?.expression ?? earlier.item.as(ExprSyntax.self)
      if let branch = expression?.as(IfExprSyntax.self), branch.elseBody == nil, Self.counts(Syntax(branch.conditions)),
         branch.body.statements.contains(where: { $0.item.is(ReturnStmtSyntax.self) }) {
        return RuntimeCondition(line: place(branch).line, description: "after the early return at line \(place(branch).line)")
      }
    }
    return nil
  }

  /// An else that ends the process (`fatalError()`, `preconditionFailure()`): no launch goes on
  /// past the guard without the condition.
  private static func neverReturns(_ body: CodeBlockSyntax) -> Bool {
    guard let last = body.statements.last?.item, let call = (last.as(ExpressionStmtSyntax.self)?.expression ?? last.as(ExprSyntax.self))?.as(FunctionCallExprSyntax.self) else { return false }
    return ["fatalError", "preconditionFailure", "abort", "exit"].contains(calleeName(call.calledExpression) ?? "")
  }

  /// Whether `text` holds `Test` or `TEST`, or `test` not right after an ASCII letter.
  static func namesATest(_ text: String) -> Bool {
    let bytes = Array(text.utf8), test = Array("est".utf8), capitals = Array("EST".utf8)
    for i in bytes.indices where i + 3 < bytes.count {
      let rest = Array(bytes[(i + 1)...(i + 3)])
      switch bytes[i] {
      case UInt8(ascii: "T"): if rest == test || rest == capitals { return true }
      case UInt8(ascii: "t"):
        let afterLetter = i > 0 && (UInt8(ascii: "A")...UInt8(ascii: "Z") ~= bytes[i - 1] || UInt8(ascii: "a")...UInt8(ascii: "z") ~= bytes[i - 1])
        if rest == test, !afterLetter { return true }
      default: continue
      }
    }
    return false
  }

  /// A condition counts unless it is only `#available` checks or names a test (`isRunningTests`,
  /// `XCTest`, `testMode`; not `isLatest`).
  private static func counts(_ conditions: Syntax) -> Bool {
    let text = conditions.trimmedDescription
    if namesATest(text) { return false }
    guard let list = conditions.as(ConditionElementListSyntax.self) else { return true }
    return !list.allSatisfy { $0.condition.is(AvailabilityConditionSyntax.self) }
  }
}
