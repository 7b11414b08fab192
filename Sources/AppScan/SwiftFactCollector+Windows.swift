import SwiftSyntax

extension SwiftFactCollector {
  /// A `window` name: the enclosing type's property (bare or through `self`), or an app
  /// delegate's (`delegate?.window`, `appDelegate.window`). A name the function binds itself
  /// (`let window`, `for window in`, `{ window in … }`) is its own and not counted.
  func recordWindowUse(_ node: DeclReferenceExprSyntax) {
    var expression = ExprSyntax(node)
    var viaDelegate = false
    if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
      guard let base = member.base?.trimmedDescription, base.utf8.count <= 200 else { return }
      // `….delegate?.window`, but not a scene's (`scene.delegate`, `as? SceneDelegate`).
      if base.range(of: "delegate", options: .caseInsensitive) != nil {
        guard base.range(of: "scene", options: .caseInsensitive) == nil else { return }
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
