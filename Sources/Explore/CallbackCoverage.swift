import Lifecycle

/// The callbacks delivered, by class: a bit per `Callback.ordinal` for each class met. Runs
/// and lanes collect these at every callback event, and a run meets only a few classes, so a
/// class is found by comparing names (the last one met first) rather than by hashing its name
/// each time; only the result names the callbacks (`names`).
struct CallbackCoverage {
  private var classes: [String] = []
  private var delivered: [UInt128] = []
  private var last = 0

  /// Notes that `callback` was delivered to an instance of `className`.
  mutating func insert(className: String, callback: Callback) {
    precondition(callback.ordinal < UInt128.bitWidth, "more callbacks than a class's bits hold")
    delivered[index(of: className)] |= 1 << UInt128(callback.ordinal)
  }

  /// Adds what `other` covered.
  mutating func formUnion(_ other: CallbackCoverage) {
    for (name, bits) in zip(other.classes, other.delivered) { delivered[index(of: name)] |= bits }
  }

  /// `Class.callback()` of each callback delivered (`NoteList.viewDidLoad()`).
  var names: [String] {
    zip(classes, delivered).flatMap { name, bits in
      Callback.allCases.indices.filter { bits & (1 << UInt128($0)) != 0 }.map { "\(name).\(Callback.allCases[$0].signature)" }
    }
  }

  private mutating func index(of name: String) -> Int {
    if last < classes.count, classes[last] == name { return last }
    if let known = classes.firstIndex(of: name) { last = known; return known }
    classes.append(name)
    delivered.append(0)
    last = classes.count - 1
    return last
  }
}
