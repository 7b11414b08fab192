/// How a call site is reached: from a launch method, from a launch method but only through
/// code it defers (`DispatchQueue.main.async`, `Task`: it runs after launch has finished), from
/// a later entry point UIKit calls (another delegate method), or from nothing the scan can see
/// (unknown: no diagnostic).
package enum Reach: Equatable, Sendable {
  case launch(EntryPoint)
  case deferred(EntryPoint, by: String)
  case late(EntryPoint)
  case unknown

  /// The entry point, if known.
  package var entry: EntryPoint? {
    switch self {
    case let .launch(entry), let .late(entry), let .deferred(entry, _): return entry
    case .unknown: return nil
    }
  }

  /// Reached so that it runs after launch has finished: deferred, or from a later entry point.
  package var isAfterLaunch: Bool {
    switch self {
    case .deferred, .late: return true
    case .launch, .unknown: return false
    }
  }

  /// This reach for a place that `by` defers within its function: launch becomes deferred.
  package func deferred(by: String?) -> Reach {
    guard let by, case let .launch(entry) = self else { return self }
    return .deferred(entry, by: by)
  }

  /// How `--json` names it.
  package var name: String {
    switch self {
    case .launch: return "launch"
    case .deferred: return "deferred"
    case .late: return "after_launch"
    case .unknown: return "unknown"
    }
  }

  /// Where it is reached from, for messages: "from X inside DispatchQueue.main.async, which
  /// runs after launch has finished", "from X, after launch".
  package var origin: String {
    switch self {
    case let .deferred(entry, by): return "from \(entry.qualified) inside \(by), which runs after launch has finished"
    case let .late(entry): return "from \(entry.qualified), after launch"
    case let .launch(entry): return "from \(entry.qualified), at launch"
    case .unknown: return "from code the scan cannot place"
    }
  }

}

/// A method UIKit or SwiftUI calls: `AppDelegate` and `application(_:didFinishLaunchingWithOptions:)`.
package struct EntryPoint: Equatable, Sendable {
  package let type: String
  package let selector: String

  /// `AppDelegate.application(_:didFinishLaunchingWithOptions:)`.
  package var qualified: String { type + "." + selector }
}

/// Who calls whom among the scanned functions, resolved by name (no type checking).
///
/// The calls are kept by the name called, not as edges to every function of that name: a name
/// many types share (`load()`, `save()`) would make the edges grow as the square of the functions
/// (5,000 models each calling `touch()` on another: 25 million edges). A function's callers are
/// found when a walk reaches it, from the one or two names a call can reach it by.
struct CallGraph {
  private let functions: [FunctionFact]
  /// The functions UIKit (or SwiftUI) calls: delegate methods and a SwiftUI `App`'s members.
  private let entries: [Int: Reach]
  /// Each name called: every call of it, by caller, then immediate calls before deferred ones,
  /// then name, as the functions are in `functions`.
  private var callsByName: [String: [Call]] = [:]
  private var bySelector: [String: [Int]] = [:]
  private var byBaseName: [String: [Int]] = [:]
  /// How far up a walk goes before it gives up (unknown).
  static let maxVisited = 256

  /// One call a function makes: the caller, and the API that defers it when it is deferred.
  private struct Call {
    let caller: Int
    let deferredBy: String?
    let name: String
  }

  init(functions: [FunctionFact], entries: [Int: Reach]) {
    self.functions = functions
    self.entries = entries
    for (index, function) in functions.enumerated() {
      bySelector[function.selector, default: []].append(index)
      byBaseName[function.baseName, default: []].append(index)
    }
    for (caller, function) in functions.enumerated() {
      for name in function.calls.sorted() { callsByName[name, default: []].append(Call(caller: caller, deferredBy: nil, name: name)) }
      for (name, by) in function.deferredCalls.sorted(by: { $0.key < $1.key }) {
        callsByName[name, default: []].append(Call(caller: caller, deferredBy: by, name: name))
      }
    }
  }

  /// The names a call reaches the function at `index` by: its selector; and its bare name when
  /// no function has that name as its selector and no other shares it (a call that leaves
  /// defaulted arguments out, or passes a trailing closure).
  private func names(of index: Int) -> [String] {
    let function = functions[index]
    guard function.baseName != function.selector, bySelector[function.baseName] == nil,
          byBaseName[function.baseName]?.count == 1 else { return [function.selector] }
    return [function.selector, function.baseName]
  }

  /// The calls that reach the function at `index` (a function calling itself immediately aside),
  /// by caller, then immediate calls before deferred ones, then name.
  private func callers(of index: Int) -> [(caller: Int, deferredBy: String?)] {
    let names = names(of: index)
    var calls = names.flatMap { callsByName[$0] ?? [] }.filter { $0.deferredBy != nil || $0.caller != index }
    if names.count > 1 {
      calls.sort { ($0.caller, $0.deferredBy == nil ? 0 : 1, $0.name) < ($1.caller, $1.deferredBy == nil ? 0 : 1, $1.name) }
    }
    return calls.map { ($0.caller, $0.deferredBy) }
  }

  /// How the function at `index` is reached: launch if a path of immediate calls leads to a
  /// launch entry, else deferred if a path through deferred calls does, else the first later
  /// entry found, else unknown.
  func reach(of index: Int?) -> Reach {
    guard let index else { return .unknown }
    // Each function is visited at most twice: reached by immediate calls, and through a deferral.
    var queue: [(function: Int, deferredBy: String?)] = [(index, nil)]
    var seen: Set<Int> = [index * 2]
    var head = 0
    var deferred: Reach?
    var late: Reach?
    while head < queue.count, seen.count <= Self.maxVisited * 2 {
      let (current, deferredBy) = queue[head]
      head += 1
      if let entry = entries[current] {
        switch entry {
        case let .launch(point): if let deferredBy { deferred = deferred ?? .deferred(point, by: deferredBy) } else { return entry }
        default: late = late ?? entry
        }
        continue
      }
      for (caller, by) in callers(of: current) {
        let through = deferredBy ?? by
        if seen.insert(caller * 2 + (through == nil ? 0 : 1)).inserted { queue.append((caller, through)) }
      }
    }
    return deferred ?? late ?? .unknown
  }

  /// The selector of the function at `index`, nil at file level.
  func selector(of index: Int?) -> String? { index.map { functions[$0].selector } }
}
