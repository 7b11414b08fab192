import SwiftParser
import SwiftSyntax

/// Walks one parsed Swift file and gathers its `SwiftFacts`: declarations here, calls in
/// `SwiftFactCollector+Calls.swift`. No type checking: names are kept as written.
final class SwiftFactCollector: SyntaxVisitor {
  let path: String
  let converter: SourceLocationConverter
  var facts = SwiftFacts()
  /// The enclosing types' names, innermost last.
  var typeStack: [String] = []
  /// The enclosing functions' indices in `facts.functions`, innermost last.
  var functionStack: [Int] = []
  /// The enclosing `#if` branches' conditions, outermost first.
  var conditionStack: [String] = []
  /// Names this file binds to `UNUserNotificationCenter.current()`.
  var notificationCenterNames: Set<String> = []
  /// Names the current function binds to `UISceneConfiguration(name: …, …)`, with the
  /// configuration's name when it is a literal (nil when the scan cannot read it).
  var sceneConfigurationNames: [String: String?] = [:]
  /// Names this file binds to the application: `UIApplication` parameters and properties, and
  /// names given `UIApplication.shared`.
  var applicationNames: Set<String> = []
  /// The closures that run after the code around them returns, innermost last: the function
  /// they sit in and the API that defers them (`DispatchQueue.main.async`).
  var deferrals: [(function: Int?, by: String)] = []
  /// For each enclosing closure, innermost last, whether it pushed a deferral.
  var closureDefers: [Bool] = []
  /// The names each enclosing function binds itself (its parameters and locals), innermost last:
  /// a bare name among them is the function's own value, never a constant of that name.
  var localNames: [Set<String>] = []
  /// Each `beginBackgroundTask`'s receiver as written, classified once the file is read.
  var pendingReceivers: [(task: Int, name: String?, inApplicationExtension: Bool)] = []
  /// Whether each function binds `window` itself, read once per function.
  var bindsWindowMemo: [SyntaxIdentifier: Bool] = [:]
  /// Path walks left in this file (`maxPathWalks`): past them a file gives no path findings.
  var pathWalksLeft = SwiftFactCollector.maxPathWalks
  /// The most path walks one file gets: each walks the rest of its block, so a file of
  /// thousands of `beginBackgroundTask` calls in one function is cut short, not walked k × n.
  static let maxPathWalks = 256

  /// The facts of the parsed file `path`.
  static func facts(path: String, tree: SourceFileSyntax) -> SwiftFacts {
    let collector = SwiftFactCollector(path: path, tree: tree)
    collector.walk(tree)
    collector.resolveReceivers()
    if tree.hasError { collector.facts.syntaxErrorLines = SyntaxErrorFinder.lines(tree, collector.converter) }
    return collector.facts
  }

  private init(path: String, tree: SourceFileSyntax) {
    self.path = path
    converter = SourceLocationConverter(fileName: path, tree: tree)
    super.init(viewMode: .sourceAccurate)
  }

  func place(_ node: some SyntaxProtocol) -> SourcePlace {
    SourcePlace(file: path, line: node.startLocation(converter: converter, afterLeadingTrivia: true).line)
  }

  var currentCondition: String? { conditionStack.isEmpty ? nil : conditionStack.joined(separator: " && ") }

  /// The API that defers the code being read past the function it sits in, if any.
  var currentDeferral: String? {
    guard let last = deferrals.last, last.function == functionStack.last else { return nil }
    return last.by
  }

  // MARK: Types

  /// Classes, structs, enums, actors and protocols, each visited by its own kind (a visit of
  /// every node that casts it to a declaration group was most of a scan's time).
  override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node.name.text, node.inheritanceClause, node.attributes, node); return .visitChildren }
  override func visitPost(_ node: ClassDeclSyntax) { typeStack.removeLast() }
  override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node.name.text, node.inheritanceClause, node.attributes, node); return .visitChildren }
  override func visitPost(_ node: StructDeclSyntax) { typeStack.removeLast() }
  override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node.name.text, node.inheritanceClause, node.attributes, node); return .visitChildren }
  override func visitPost(_ node: EnumDeclSyntax) { typeStack.removeLast() }
  override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node.name.text, node.inheritanceClause, node.attributes, node); return .visitChildren }
  override func visitPost(_ node: ActorDeclSyntax) { typeStack.removeLast() }
  override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { enterType(node.name.text, node.inheritanceClause, node.attributes, node); return .visitChildren }
  override func visitPost(_ node: ProtocolDeclSyntax) { typeStack.removeLast() }

  override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
    let name = Self.plainTypeName(node.extendedType.trimmedDescription)
    facts.types.append(TypeFact(name: name, isExtension: true, conformances: Self.conformances(node.inheritanceClause),
                                isMain: false, place: place(node)))
    typeStack.append(name)
    return .visitChildren
  }
  override func visitPost(_ node: ExtensionDeclSyntax) { typeStack.removeLast() }

  private func enterType(_ name: String, _ inheritance: InheritanceClauseSyntax?, _ attributes: AttributeListSyntax,
                         _ node: some SyntaxProtocol) {
    let isMain = attributes.contains { ["main", "UIApplicationMain"].contains(Self.attributeName($0)) }
    facts.types.append(TypeFact(name: name, isExtension: false, conformances: Self.conformances(inheritance),
                                isMain: isMain, place: place(node)))
    typeStack.append(name)
  }

  static func conformances(_ clause: InheritanceClauseSyntax?) -> [String] {
    (clause?.inheritedTypes ?? []).map { plainTypeName($0.type.trimmedDescription) }
  }

  /// A declared type's plain name, optionals unwrapped: `UIApplication?` and `UIKit.UIApplication!` are `UIApplication`.
  static func typeName(_ type: TypeSyntax) -> String {
    plainTypeName(String(type.trimmedDescription.unicodeScalars.filter { $0 != "!" && $0 != "?" }))
  }

  /// `UIKit.UIApplicationDelegate` is `UIApplicationDelegate`; `Outer.Inner` keeps its last name.
  static func plainTypeName(_ text: String) -> String {
    String(text.split(separator: ".").last ?? Substring(text))
  }

  static func attributeName(_ element: AttributeListSyntax.Element) -> String? {
    guard case let .attribute(attribute) = element else { return nil }
    return attribute.attributeName.trimmedDescription
  }

  // MARK: Functions

  override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
    let labels = node.signature.parameterClause.parameters.map { $0.firstName.text }
    enterFunction(Self.selector(node.name.text, labels), isAsync: node.signature.effectSpecifiers?.asyncSpecifier != nil, node)
    if let completion = node.signature.parameterClause.parameters.last, completion.firstName.text == "completionHandler", let body = node.body {
      let name = (completion.secondName ?? completion.firstName).text
      facts.functions[functionStack.last!].ignoresCompletion = !NameUseFinder.uses(name, in: body)
      if Self.quickActionSelectors.contains(facts.functions[functionStack.last!].selector), pathWalksLeft > 0 {
        pathWalksLeft -= 1
        var walker = ExitPathWalker(rule: ExitPathRule(closingCall: name, name: name, isLocal: true, scopeThrows: false), converter: converter)
        walker.walkScope(Array(body.statements), openLine: place(node).line)
        facts.functions[functionStack.last!].completionOpenExits = walker.exits
      }
    }
    recordTaskFunction(node)
    if facts.functions[functionStack.last!].selector == "scene(_:willConnectTo:options:)", let body = node.body,
       let options = node.signature.parameterClause.parameters.last {
      facts.functions[functionStack.last!].connectionPayloads = MemberUseFinder.members(of: (options.secondName ?? options.firstName).text, in: body)
    }
    return .visitChildren
  }
  override func visitPost(_ node: FunctionDeclSyntax) { leaveFunction() }
  override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
    let labels = node.signature.parameterClause.parameters.map { $0.firstName.text }
    enterFunction(Self.selector("init", labels), isAsync: node.signature.effectSpecifiers?.asyncSpecifier != nil, node)
    return .visitChildren
  }
  override func visitPost(_ node: InitializerDeclSyntax) { leaveFunction() }

  /// A computed property (`var body: some Scene { … }`) is a function named after it.
  override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
    recordBinding(node)
    guard node.accessorBlock != nil, let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
      return .visitChildren
    }
    enterFunction(name, isAsync: false, node)
    return .visitChildren
  }
  override func visitPost(_ node: PatternBindingSyntax) {
    if node.accessorBlock != nil, node.pattern.is(IdentifierPatternSyntax.self) { leaveFunction() }
  }

  /// The quick-action handlers, whose completion handler is followed along their paths.
  static let quickActionSelectors: Set<String> = ["windowScene(_:performActionFor:completionHandler:)", "application(_:performActionFor:completionHandler:)"]

  private func enterFunction(_ selector: String, isAsync: Bool, _ node: some SyntaxProtocol) {
    facts.functions.append(FunctionFact(owner: typeStack.last, selector: selector, isAsync: isAsync,
                                        place: place(node), condition: currentCondition))
    functionStack.append(facts.functions.count - 1)
    localNames.append([])
    sceneConfigurationNames = [:]
  }

  private func leaveFunction() {
    functionStack.removeLast()
    localNames.removeLast()
    sceneConfigurationNames = [:]
  }

  /// `name(label:_:)`; `name()` without parameters.
  static func selector(_ name: String, _ labels: [String]) -> String {
    name + "(" + labels.map { $0 + ":" }.joined() + ")"
  }

  // MARK: Constants, adaptors

  /// A raw value, or a `String` enum's implicit one (its name).
  override func visit(_ node: EnumCaseElementSyntax) -> SyntaxVisitorContinueKind {
    if let value = node.rawValue.flatMap({ Self.literal($0.value) }) {
      addConstant(node.name.text, .literal(value))
    } else if node.rawValue == nil, Self.enclosingEnumIsString(node) {
      addConstant(node.name.text, .literal(node.name.text))
    }
    return .visitChildren
  }

  private static func enclosingEnumIsString(_ node: EnumCaseElementSyntax) -> Bool {
    var parent = node.parent
    for _ in 0..<8 {
      guard let current = parent else { return false }
      if let declaration = current.as(EnumDeclSyntax.self) { return conformances(declaration.inheritanceClause).first == "String" }
      parent = current.parent
    }
    return false
  }

  /// A function's `UIApplication` parameters name the application.
  override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
    let name = (node.secondName ?? node.firstName).text
    if !localNames.isEmpty { localNames[localNames.count - 1].insert(name) }
    let type = Self.typeName(node.type)
    if type == "UIApplication" { applicationNames.insert(name) }
    if type == "UNUserNotificationCenter" { notificationCenterNames.insert(name) }
    return .visitChildren
  }

  override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
    for element in node.attributes {
      guard let name = Self.attributeName(element), Self.adaptorAttributes.contains(name), case let .attribute(attribute) = element,
            case let .argumentList(arguments) = attribute.arguments, let first = arguments.first else { continue }
      let text = first.expression.trimmedDescription
      let delegate = text.hasSuffix(".self") ? String(text.dropLast(5)) : text
      facts.adaptors.append(AdaptorFact(owner: typeStack.last, delegateType: Self.plainTypeName(delegate), place: place(node), attribute: name))
    }
    for binding in node.bindings {
      guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
      let type = binding.typeAnnotation.map { Self.typeName($0.type) }
      if type == "UIApplication" || binding.initializer.map({ Self.isMember($0.value, "shared", of: "UIApplication") }) == true { applicationNames.insert(name) }
      if type == "UNUserNotificationCenter" { notificationCenterNames.insert(name) }
    }
    return .visitChildren
  }

  /// The SwiftUI and app-delegate adaptors: iOS's, and macOS's and watchOS's, which make an `App` theirs.
  static let adaptorAttributes: Set<String> = ["UIApplicationDelegateAdaptor", "NSApplicationDelegateAdaptor",
                                               "WKApplicationDelegateAdaptor", "WKExtensionDelegateAdaptor"]

  /// Whether `expression` is `Type.member`, read from the tree (printing every initializer to
  /// compare its text was a sixth of a scan's time).
  static func isMember(_ expression: ExprSyntax, _ member: String, of type: String) -> Bool {
    guard let access = expression.as(MemberAccessExprSyntax.self), access.declName.baseName.text == member else { return false }
    return access.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == type
  }

  /// A stored constant outside functions (`static let x = "…"`, `let x = prefix + "…"`), or a
  /// computed one whose body is one expression (`static var x: String { "…" }`).
  private func recordBinding(_ node: PatternBindingSyntax) {
    guard let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return }
    if !functionStack.isEmpty, node.accessorBlock == nil { localNames[localNames.count - 1].insert(name) }
    if name == "window", functionStack.isEmpty, let owner = typeStack.last { facts.windowProperties.append(owner) }
    if let value = node.initializer?.value {
      if functionStack.isEmpty, case let expression = Self.identifier(value), expression != .unknown { addConstant(name, expression) }
      if let call = value.as(FunctionCallExprSyntax.self), Self.isMember(call.calledExpression, "current", of: "UNUserNotificationCenter") {
        notificationCenterNames.insert(name)
      }
      if let call = value.as(FunctionCallExprSyntax.self), Self.calleeName(call.calledExpression) == "UISceneConfiguration" {
        sceneConfigurationNames[name] = .some(call.arguments.first { $0.label?.text == "name" }.flatMap { Self.literal($0.expression) })
      }
    } else if functionStack.isEmpty, case let .getter(body)? = node.accessorBlock?.accessors, body.count == 1,
              let only = body.first?.item {
      let expression = only.as(ExprSyntax.self) ?? only.as(ReturnStmtSyntax.self)?.expression
      if let expression, case let identifier = Self.identifier(expression), identifier != .unknown { addConstant(name, identifier) }
    }
  }

  private func addConstant(_ name: String, _ value: IdentifierExpression) {
    let qualified = (typeStack + [name]).joined(separator: ".")
    facts.constants.append(ConstantFact(qualifiedName: qualified, value: scopedInType(value)))
  }

  /// The text of a string literal without interpolation or escapes, else nil (unknown: the
  /// scan does not decode Swift's escapes, and a raw string's `\#` escapes count as escapes).
  static func literal(_ expression: ExprSyntax) -> String? {
    guard let literal = expression.as(StringLiteralExprSyntax.self) else { return nil }
    let escape = "\\" + (literal.openingPounds?.text ?? "")
    var text = ""
    for segment in literal.segments {
      guard case let .stringSegment(piece) = segment, !piece.content.text.contains(escape) else { return nil }
      text += piece.content.text
    }
    return text
  }

  // MARK: Conditional compilation

  override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
    conditionStack.append(Self.branchCondition(node))
    return .visitChildren
  }
  override func visitPost(_ node: IfConfigClauseSyntax) { conditionStack.removeLast() }

  /// `DEBUG` for `#if DEBUG`; `!(DEBUG)` for its `#else`; `!(A) && B` for `#elseif B` after `#if A`.
  static func branchCondition(_ clause: IfConfigClauseSyntax) -> String {
    var parts: [String] = []
    if let list = clause.parent?.as(IfConfigClauseListSyntax.self) {
      for earlier in list {
        if earlier.id == clause.id { break }
        if let condition = earlier.condition { parts.append("!(\(condition.trimmedDescription))") }
      }
    }
    if let condition = clause.condition { parts.append(condition.trimmedDescription) }
    return parts.joined(separator: " && ")
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind { recordCall(node); return .visitChildren }
  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    if node.baseName.tokenKind == .identifier("window") { recordWindowUse(node) }
    return .skipChildren
  }
  override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
    let by = Self.deferringCall(of: node)
    if let by { deferrals.append((functionStack.last, by)) }
    closureDefers.append(by != nil)
    return .visitChildren
  }
  override func visitPost(_ node: ClosureExprSyntax) {
    if closureDefers.removeLast() { deferrals.removeLast() }
  }
  override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind { recordAssignment(node); return .visitChildren }
}

/// The members a body reads of a name (`connectionOptions.urlContexts`), through optional chains
/// too; `*` when it hands the name on whole.
final class MemberUseFinder: SyntaxVisitor {
  private let name: String
  private var members: Set<String> = []

  static func members(of name: String, in body: CodeBlockSyntax) -> Set<String> {
    let finder = MemberUseFinder(name)
    finder.walk(body)
    return finder.members
  }

  private init(_ name: String) {
    self.name = name
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
    var base = node.base
    if let optional = base?.as(OptionalChainingExprSyntax.self) { base = optional.expression }
    if base?.as(DeclReferenceExprSyntax.self)?.baseName.text == name { members.insert(node.declName.baseName.text) }
    return .visitChildren
  }

  /// The name used whole (`router.handle(connectionOptions)`): `*`, every member may be read.
  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    guard node.baseName.text == name else { return .visitChildren }
    var parent = node.parent
    if parent?.is(OptionalChainingExprSyntax.self) == true { parent = parent?.parent }
    if parent?.as(MemberAccessExprSyntax.self)?.declName.id != Syntax(node).id, parent?.is(MemberAccessExprSyntax.self) != true { members.insert("*") }
    return .visitChildren
  }
}

/// Whether a body names a value (a parameter) anywhere: a call, a capture, a hand-off.
final class NameUseFinder: SyntaxVisitor {
  private let name: String
  private var found = false

  static func uses(_ name: String, in body: CodeBlockSyntax) -> Bool {
    let finder = NameUseFinder(name)
    finder.walk(body)
    return finder.found
  }

  private init(_ name: String) {
    self.name = name
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    if node.baseName.text == name { found = true }
    return found ? .skipChildren : .visitChildren
  }
}

/// The lines where the parser found unexpected text or had to assume missing tokens (a
/// `sourceAccurate` walk never sees the missing ones, so this walk sees all).
final class SyntaxErrorFinder: SyntaxVisitor {
  private let converter: SourceLocationConverter
  private var lines: [Int] = []

  static func lines(_ tree: SourceFileSyntax, _ converter: SourceLocationConverter) -> [Int] {
    let finder = SyntaxErrorFinder(converter)
    finder.walk(tree)
    return finder.lines
  }

  private init(_ converter: SourceLocationConverter) {
    self.converter = converter
    super.init(viewMode: .all)
  }

  override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind { note(node); return .skipChildren }
  override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
    if token.presence == .missing { note(token) }
    return .skipChildren
  }

  private func note(_ node: some SyntaxProtocol) {
    let line = node.startLocation(converter: converter, afterLeadingTrivia: true).line
    if !lines.contains(line) { lines.append(line) }
  }
}
