import SwiftSyntax

extension SwiftFactCollector {
  /// A `UIWindow(frame:)`, with the condition around it: a runtime one, else the `#if` it is
  /// compiled under (the build decides it, so the run does). One made only where `#available`
  /// says the system predates scenes (iOS 12 and before) never meets a scene and is not counted.
  func recordFrameWindow(_ call: FunctionCallExprSyntax) {
    guard !Self.runsOnlyBeforeScenes(Syntax(call)) else { return }
    let line = place(call).line
    let compiled = currentCondition.map { RuntimeCondition(line: line, description: "under #if \($0), which the build decides") }
    facts.windows.append(WindowFact(owner: typeStack.last, function: functionStack.last, place: place(call),
                                    condition: runtimeCondition(of: Syntax(call), chain: nil) ?? compiled))
  }

  /// Whether `node` runs only on a system without scenes: in the `else` of `if #available(iOS 13…`
  /// or later, or in the body of `if #unavailable(iOS 13…`.
  static func runsOnlyBeforeScenes(_ node: Syntax) -> Bool {
    var child = node
    var current = node.parent
    for _ in 0..<256 {
      guard let parent = current, !parent.is(FunctionDeclSyntax.self), !parent.is(SourceFileSyntax.self) else { return false }
      if let branch = parent.as(IfExprSyntax.self), let scenes = scenesAvailable(branch.conditions) {
        let inElse = branch.elseBody.map { Syntax($0).id == child.id } ?? false
        let inBody = Syntax(branch.body).id == child.id
        if (scenes && inElse) || (!scenes && inBody) { return true }
      }
      child = parent
      current = parent.parent
    }
    return false
  }

  /// The major version of the first `iOS N` (blanks between) that `text` names.
  static func iOSMajorVersion(_ text: String) -> Int? {
    for name in text.ranges(of: "iOS") {
      let after = text[name.upperBound...]
      let digits = after.drop { $0.isWhitespace }
      guard digits.startIndex > after.startIndex, let first = digits.first, first.isNumber else { continue }
      return Int(digits.prefix { $0.isNumber })
    }
    return nil
  }

  /// For an `if` whose only condition is `#available(iOS N…)` (true) or `#unavailable(iOS N…)`
  /// (false) with N of 13 or more: whether its body runs where scenes exist; else nil.
  private static func scenesAvailable(_ conditions: ConditionElementListSyntax) -> Bool? {
    guard conditions.count == 1, let availability = conditions.first?.condition.as(AvailabilityConditionSyntax.self) else { return nil }
    let text = availability.availabilityArguments.trimmedDescription
    guard let major = Self.iOSMajorVersion(text), major >= 13 else { return nil }
    return availability.availabilityKeyword.tokenKind == .poundAvailable
  }
  /// A `window` name: the enclosing type's property (bare or through `self`), or an app
  /// delegate's (`delegate?.window`, `appDelegate.window`). A name the function binds itself
  /// (`let window`, `for window in`, `{ window in … }`) is its own and not counted.
  func recordWindowUse(_ node: DeclReferenceExprSyntax) {
    var expression = ExprSyntax(node)
    var viaDelegate = false
    if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
      guard let base = member.base?.trimmedDescription, base.utf8.count <= 200 else { return }
      // `….delegate?.window`, but not a scene's (`scene.delegate`, `as? SceneDelegate`).
      if base.lowercased().contains("delegate") {
        guard !base.lowercased().contains("scene") else { return }
        viaDelegate = true
      } else if base != "self" {
        return
      }
      expression = ExprSyntax(member)
    } else if localNames.last?.contains("window") == true || bindsWindow(Syntax(node)) {
      return
    }
    guard viaDelegate || typeStack.last != nil else { return }
    let sequence = expression.parent?.as(ExprListSyntax.self)?.parent?.as(SequenceExprSyntax.self)
    let isWrite = sequence.map { Array($0.elements).count >= 3 && $0.elements.first?.id == expression.id
      && Array($0.elements)[1].is(AssignmentExprSyntax.self) } ?? false
    facts.windowUses.append(WindowUseFact(owner: typeStack.last, function: functionStack.last, place: place(node),
                                          isWrite: isWrite, viaDelegate: viaDelegate))
  }

  /// Whether the function around a node binds `window` itself, as its text shows (read once a function).
  private func bindsWindow(_ node: Syntax) -> Bool {
    var current = node.parent
    while let parent = current, !parent.is(FunctionDeclSyntax.self), !parent.is(AccessorBlockSyntax.self) { current = parent.parent }
    guard let function = current else { return false }
    if let known = bindsWindowMemo[function.id] { return known }
    let body = function.as(FunctionDeclSyntax.self)?.body?.description ?? function.description
    let binds = ["let window", "var window", "window in", "for window", "case window", "(window)", ", window)"].contains { body.contains($0) }
    bindsWindowMemo[function.id] = binds
    return binds
  }
}
