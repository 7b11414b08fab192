/// How a call site is reached: from a launch method, from a later entry point UIKit calls
/// (another delegate method), or from nothing the scan can see (unknown: no diagnostic).
package enum Reach: Equatable, Sendable {
  case launch(EntryPoint)
  case late(EntryPoint)
  case unknown

  /// The entry point, if known.
  package var entry: EntryPoint? {
    switch self {
    case let .launch(entry), let .late(entry): return entry
    case .unknown: return nil
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
struct CallGraph {
  private let functions: [FunctionFact]
  /// The functions UIKit (or SwiftUI) calls: delegate methods and a SwiftUI `App`'s members.
  private let entries: [Int: Reach]
  private var callers: [Int: [Int]] = [:]
  /// How far up a walk goes before it gives up (unknown).
  static let maxVisited = 256

  init(functions: [FunctionFact], entries: [Int: Reach]) {
    self.functions = functions
    self.entries = entries
    var bySelector: [String: [Int]] = [:]
    var byBaseName: [String: [Int]] = [:]
    for (index, function) in functions.enumerated() {
      bySelector[function.selector, default: []].append(index)
      byBaseName[function.baseName, default: []].append(index)
    }
    for (caller, function) in functions.enumerated() {
      for name in function.calls {
        // A selector names its functions; a bare name only one that no other function shares
        // (a call that leaves defaulted arguments out, or passes a trailing closure).
        let callees = bySelector[name] ?? (byBaseName[name]?.count == 1 ? byBaseName[name]! : [])
        for callee in callees where callee != caller { callers[callee, default: []].append(caller) }
      }
    }
  }

  /// How the function at `index` is reached: launch if any path leads to a launch entry, else
  /// the first later entry found, else unknown.
  func reach(of index: Int?) -> Reach {
    guard let index else { return .unknown }
    var queue = [index]
    var seen: Set<Int> = [index]
    var late: Reach?
    while !queue.isEmpty, seen.count <= Self.maxVisited {
      let current = queue.removeFirst()
      if let entry = entries[current] {
        if case .launch = entry { return entry }
        late = late ?? entry
        continue
      }
      for caller in callers[current] ?? [] where seen.insert(caller).inserted { queue.append(caller) }
    }
    return late ?? .unknown
  }

  /// The selector of the function at `index`, nil at file level.
  func selector(of index: Int?) -> String? { index.map { functions[$0].selector } }
}
