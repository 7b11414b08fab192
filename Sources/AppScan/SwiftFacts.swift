/// A place in a scanned file: its path as the scan names it and a 1-based line.
package struct SourcePlace: Equatable, Sendable, Comparable {
  package let file: String
  package let line: Int

  package static func < (a: SourcePlace, b: SourcePlace) -> Bool { (a.file, a.line) < (b.file, b.line) }
}

/// A type declaration or an extension, with what it adopts.
package struct TypeFact: Sendable {
  package let name: String
  package let isExtension: Bool
  package let conformances: [String]
  /// `@main` or `@UIApplicationMain` on the declaration.
  package let isMain: Bool
  package let place: SourcePlace
}

/// A function, initializer or computed property: the unit calls are resolved between.
package struct FunctionFact: Sendable {
  /// The type (or extended type) it is declared in; nil at file level.
  package let owner: String?
  /// Swift selector form: `application(_:didFinishLaunchingWithOptions:)`, `init()`, `body`.
  package let selector: String
  package let isAsync: Bool
  package let place: SourcePlace
  /// The `#if` branch it sits in (`DEBUG`, `!(DEBUG)`), nil outside any.
  package let condition: String?
  /// What it calls: selectors (`registerTasks()`) and base names (`registerTasks`).
  package var calls: Set<String> = []
  /// It takes a `completionHandler` and its body never names it: no path calls it.
  package var ignoresCompletion = false
  /// For `scene(_:willConnectTo:options:)`: the members of the connection options it reads
  /// (`urlContexts`, `userActivities`, `shortcutItem`, `notificationResponse`).
  package var connectionPayloads: Set<String> = []
  /// For a quick-action handler: the lines of the paths that leave without calling its
  /// completion handler (nor handing it on).
  package var completionOpenExits: [Int] = []
  /// What it calls from code that runs after it returns (a closure given to
  /// `DispatchQueue.main.async`, `Task`, …), with the API that defers it.
  package var deferredCalls: [String: String] = [:]

  /// The base name: `application` for `application(_:didFinishLaunchingWithOptions:)`.
  package var baseName: String { String(selector.prefix { $0 != "(" }) }
}

/// What an identifier argument is: a literal, a name to resolve, text joined from such parts
/// (`prefix + ".refresh"`, `"\\(prefix).refresh"`), the app's bundle identifier, or unknown.
package indirect enum IdentifierExpression: Equatable, Sendable {
  case literal(String)
  case reference(String)
  /// A bare name (`taskIdentifier`, `self.x`, `Self.x`) written inside the type `scope`
  /// (`Outer.Inner`): Swift finds it in that type first, then in each type around it.
  case scoped(String, scope: String)
  case concatenation([IdentifierExpression])
  /// `Bundle.main.bundleIdentifier`: the target's `PRODUCT_BUNDLE_IDENTIFIER`.
  case bundleIdentifier
  case unknown
}

/// A `BGTaskScheduler.register(forTaskWithIdentifier:…)` call, or SwiftUI's `.backgroundTask(.appRefresh(…))`.
package struct RegistrationFact: Sendable {
  package let identifier: IdentifierExpression
  /// The index of the function it sits in (`SwiftFacts.functions`), nil at file level.
  package var function: Int?
  package let place: SourcePlace
  /// SwiftUI's scene modifier: registered by the system at launch.
  package let isSwiftUIModifier: Bool
  /// The API that defers it past the function it sits in (`DispatchQueue.main.async`), if any.
  package var deferredBy: String? = nil
  /// A condition within its function that some runs do not meet, if any.
  package var condition: RuntimeCondition? = nil
}

/// A `BGAppRefreshTaskRequest(identifier:)` or `BGProcessingTaskRequest(identifier:)` the code makes.
package struct TaskRequestFact: Sendable {
  /// `refresh` or `processing`, as `BGTaskScheduler:submit` names the kind.
  package let kind: String
  package let identifier: IdentifierExpression
}

/// `UNUserNotificationCenter.current().delegate = …`.
package struct DelegateAssignmentFact: Sendable {
  package var function: Int?
  package let place: SourcePlace
  package var deferredBy: String? = nil
  /// A condition within its function that some runs do not meet, if any.
  package var condition: RuntimeCondition? = nil
}

/// A `beginBackgroundTask` call and what its expiration handler does.
package struct BackgroundTaskFact: Sendable {
  package enum Expiration: String, Sendable { case endsTask = "ends_task", leavesTaskOpen = "leaves_task_open", unknown }
  package var function: Int?
  package let place: SourcePlace
  package let name: IdentifierExpression
  package let expiration: Expiration
  /// With `leavesTaskOpen`: the handler ends the task later, inside a closure it starts (`Task {}`,
  /// a dispatch, a completion), so the task is still open when the handler returns.
  package var expirationEndsLater = false
  /// The selector as called (a trailing closure counts as `expirationHandler:`), and who
  /// receives it: UIKit's own calls are told from an app's helpers of the same name by these.
  package var selector = "beginBackgroundTask(expirationHandler:)"
  package var receiver = CallReceiver.unknown
  /// Lines of the paths after the call that leave without ending the task (followed only
  /// where the same block ends it).
  package var openExits: [Int] = []
}

/// Who a call is made on, as far as the file shows.
package enum CallReceiver: Sendable, Equatable {
  /// `UIApplication.shared`, a `UIApplication` parameter or property, or `self` in an extension of `UIApplication`.
  case application
  /// No receiver, outside an extension of `UIApplication`: the enclosing type's own method.
  case ownType
  /// Any other receiver.
  case unknown
}

/// A `UIWindow(frame:)` built in a type's code.
package struct WindowFact: Sendable {
  package let owner: String?
  /// The function it sits in (`SwiftFacts.functions`), nil outside any.
  package let function: Int?
  package let place: SourcePlace
  /// The condition around it that some runs do not meet.
  package let condition: RuntimeCondition?
}

/// A use of a `window` property: the type's own (`window`, `self.window`) or the app
/// delegate's reached through `UIApplication.shared.delegate`.
package struct WindowUseFact: Sendable {
  package let owner: String?
  /// The function it sits in (`SwiftFacts.functions`), nil outside any.
  package let function: Int?
  package let place: SourcePlace
  /// It assigns the property itself (`window = …`), not one of its members.
  package let isWrite: Bool
  /// Reached through an app delegate (`UIApplication.shared.delegate?.window`).
  package let viaDelegate: Bool
}

/// A string constant (`static let refresh = "com.example.refresh"`, `case refresh = "…"`, a
/// computed `static var refresh: String { "…" }`), its value as written.
package struct ConstantFact: Sendable {
  /// `Owner.name`, or `name` at file level.
  package let qualifiedName: String
  package let value: IdentifierExpression
}

/// `@UIApplicationDelegateAdaptor(AppDelegate.self)` in a SwiftUI `App` (or the macOS and
/// watchOS adaptors, which make the `App` another platform's).
package struct AdaptorFact: Sendable {
  package let owner: String?
  package let delegateType: String
  package let place: SourcePlace
  /// `UIApplicationDelegateAdaptor`, `NSApplicationDelegateAdaptor`, `WKApplicationDelegateAdaptor`, …
  package var attribute = "UIApplicationDelegateAdaptor"
}

/// Everything one Swift file tells a scan.
package struct SwiftFacts: Sendable {
  package var types: [TypeFact] = []
  package var functions: [FunctionFact] = []
  package var registrations: [RegistrationFact] = []
  package var delegateAssignments: [DelegateAssignmentFact] = []
  package var backgroundTasks: [BackgroundTaskFact] = []
  package var taskHandlers: [TaskHandlerFact] = []
  package var taskRequests: [TaskRequestFact] = []
  package var windows: [WindowFact] = []
  package var windowUses: [WindowUseFact] = []
  /// Types that declare a stored `window` property.
  package var windowProperties: [String] = []
  package var constants: [ConstantFact] = []
  /// `configuration.delegateClass = T.self` on a `UISceneConfiguration(name: "…", …)`: the
  /// configuration's name (nil when the scan cannot read it) and where the code sets it.
  package var delegateClassOverrides: [(configuration: String?, place: SourcePlace)] = []
  package var adaptors: [AdaptorFact] = []
  /// Where code sets a `restorationIdentifier` (state restoration's view-controller half).
  package var restorationIdentifiers: [SourcePlace] = []
  /// Lines where the parser found a syntax error (it still reads the rest).
  package var syntaxErrorLines: [Int] = []
  /// Controller classes the code instantiates as a window's root (`rootViewController = X()`).
  package var rootControllers: [String] = []
}
