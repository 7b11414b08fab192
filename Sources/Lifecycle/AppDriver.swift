import JSON

/// The app's side of a run: ScriptHost in production, a scripted double in tests.
///
/// The simulator calls it when UIKit would run app code, handing it the system's
/// services with the job; while the job runs, the driver makes every app call
/// (`work`, `beginBackgroundTask`, `push`, …) through them. If the process dies
/// inside a job (an app call failed with `.processEnded`), the driver unwinds its
/// code and returns `.processEnded`.
public protocol AppDriver: AnyObject {
  /// A new process: load the app afresh (its top-level code may make app calls through
  /// `services`). Returns its UI layout, or the fault of its top-level code.
  func startProcess(services: AppServices) -> Result<AppLayout, AppFault>
  /// The process is gone: discard everything it held (once no app code is on the stack).
  func endProcess()
  /// Whether the app has code for `callback` on `target` (`AppDelegate`, `SceneDelegate`, `NoteList#1`, `BackgroundTask#3`).
  func implements(_ callback: Callback, target: String) -> Bool
  /// Whether the app declares the view-controller class `name`.
  func declares(controller name: String) -> Bool
  /// The user actions instances of controller class `name` declare (`act`), in name order.
  func actions(of controller: String) -> [String]
  /// What the app declares about itself (`app { … }`, as an Info.plist), known without
  /// starting a process: the system reads it before it launches the app.
  func declaredLayout() -> AppLayout
  /// Runs app code, which makes its app calls through `services`. Success carries what a
  /// callback whose return UIKit reads (`Callback.returnsValue`) returned; nil for every other job.
  func run(_ job: AppJob, services: AppServices) -> Result<JSONValue?, AppFault>
  /// The `restorationIdentifier` the app gives the view-controller class `name` (nil: none, so
  /// it takes no part in view-controller restoration; docs/model.md §17).
  func restorationIdentifier(ofController name: String) -> String?
  /// `services` is being released (the simulator calls this from its `deinit`): a driver that
  /// keeps it between jobs forgets it now, as a weak reference would have (a weak reference
  /// would make every retain of the simulator take the runtime's slow path).
  func servicesEnded(_ services: AppServices)
  /// Asked before each step of work the host does while no app code runs (delivering the
  /// transfers the app queued, expiring its tasks): false stops that work (a guard of the
  /// driver's, such as the wall clock's, has fired and stops the run).
  func hostWorkMayContinue() -> Bool
  /// UIKit has answered the app's scene activation request `number` (served, denied, or dropped
  /// past the limit): the driver may release what it keeps for it, its `errorHandler`, as UIKit
  /// releases the request's closure once it is done with it.
  func sceneRequestAnswered(_ number: Int)
}

extension AppDriver {
  /// A driver that keeps nothing for the app's scene requests.
  public func sceneRequestAnswered(_ number: Int) {}
}

extension AppDriver {
  /// A driver with no guard on host work.
  public func hostWorkMayContinue() -> Bool { true }
}

extension AppDriver {
  /// A driver that keeps no services between jobs.
  public func servicesEnded(_ services: AppServices) {}
}

extension AppDriver {
  /// A driver that knows no restoration identifiers: no controller takes part.
  public func restorationIdentifier(ofController name: String) -> String? { nil }
}

extension AppDriver {
  /// An app that declares no user actions.
  public func actions(of controller: String) -> [String] { [] }
}

/// What the system offers running app code: the app calls, the virtual clock and what
/// UIKit lets the app read (its state, `backgroundTimeRemaining`). It travels with each job,
/// so a driver needs no reference to the simulator between jobs.
public protocol AppServices: AnyObject {
  var state: LifecycleState { get }
  /// Virtual now, µs.
  var clock: Int64 { get }
  /// What `UIApplication.shared.backgroundTimeRemaining` reads, in µs (nil: "suitably large").
  var backgroundTimeRemaining_us: Int64? { get }
  /// Makes an app call; returns the id UIKit gave it (`beginBackgroundTask`, `after`), else nil.
  @discardableResult
  func handle(_ request: AppRequest, at: String?) throws(AppCallError) -> Int?

  // The fields of `state` app code reads at its calls and callbacks, read in place: `state`
  // hands over a copy of the whole struct, which costs many times the call that reads one field.
  /// `state.frontScene?.label`: the scene app code's `scene` objects name.
  var sceneLabel: String? { get }
  /// `state.orientation`.
  var orientation: Orientation { get }
  /// `state.applicationState`.
  var applicationState: ApplicationState { get }
  /// `state.protectedDataAvailable`.
  var protectedDataAvailable: Bool { get }
  /// `state.isAvailable(protection)`.
  func isAvailable(_ protection: DataProtection) -> Bool
  /// `state.readableStoredValue(key)`.
  func readableStoredValue(_ key: String) -> JSONValue?
}

/// App code the system runs.
public enum AppJob: Equatable, Sendable {
  case callback(Callback, target: String, arguments: CallbackArguments)
  /// Every observer of the notification, in the order they were added.
  case notification(String)
  case expiration(task: Int)
  case after(id: Int)

  /// The job in a message: `Main#1.viewDidLoad()`, `observers of …`, `the block of after #3`.
  public var description: String {
    switch self {
    case let .callback(cb, target, _): return "\(target).\(cb.signature)"
    case let .notification(name): return "the observers of \(name)"
    case let .expiration(task): return "the expiration handler of background task \(task)"
    case let .after(id): return "the block of after #\(id)"
    }
  }
}

/// How app code ended other than by returning.
public enum AppFault: Error, Equatable, Sendable {
  /// A Lua error: the app crashed.
  case error(message: String, traceback: String)
  /// The instruction limit stopped a runaway callback: an unresponsive main thread.
  case instructionLimit
  /// The app's memory went over its limit.
  case memoryLimit
  /// The process ended inside the job (a deadline fell inside `work`); already recorded.
  case processEnded
}

/// Thrown out of an app call when the process has died: the caller must unwind.
public struct ProcessEnded: Error, Equatable, Sendable {
  public init() {}
}

/// A verb that makes no sense now, or a malformed expectation: stops the run (exit 2).
public struct ScenarioError: Error, Equatable, CustomStringConvertible, Sendable {
  public let message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
