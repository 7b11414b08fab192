import Dispatch
import EventStore
import FoundationEssentials
import SwiftParser
import SwiftSyntax

/// Parses one Swift file and gathers its facts on a thread with a large stack, after checking
/// how deep its tree nests: a file nested past the limit (generic arguments, `#if`, a postfix
/// chain thousands deep) is named as not read instead of crashing the scan.
enum SwiftFileReader {
  /// How deep a syntax tree may nest for the walks that read it.
  static let maxTreeDepth = 2_000
  /// The parse thread's stack: the parser and the walks recurse once per level of nesting.
  static let stackBytes = 512 << 20

  static func facts(path: String, data: Data) -> Result<SwiftFacts, ScanTrouble> {
    onLargeStack { parse(path: path, data: data) }
  }

  /// The depth of `tree`, counted without recursion, stopping once it passes `limit`.
  static func depth(of tree: some SyntaxProtocol, over limit: Int) -> Int {
    var deepest = 0
    var stack: [(Syntax, Int)] = [(Syntax(tree), 1)]
    while let (node, level) = stack.popLast() {
      deepest = max(deepest, level)
      if deepest > limit { return deepest }
      for child in node.children(viewMode: .sourceAccurate) { stack.append((child, level + 1)) }
    }
    return deepest
  }

  /// The most files parsed at once: one per processor, at most 8.
  static var parallelFilesMax: Int { max(1, min(8, ProcessInfo.processInfo.activeProcessorCount)) }

  /// `facts(path:data:)` of each file, in the order given, parsed on up to `parallelFilesMax`
  /// threads of their own (each with `stackBytes` of stack). The result does not depend on
  /// how many ran at once: each file is read by itself and lands at its own index.
  static func facts(of files: [(path: String, data: Data)]) -> [Result<SwiftFacts, ScanTrouble>] {
    guard files.count > 1, parallelFilesMax > 1 else { return files.map { facts(path: $0.path, data: $0.data) } }
    let results = ResultSlots<Result<SwiftFacts, ScanTrouble>>(count: files.count)
    let workers = (0..<min(parallelFilesMax, files.count)).compactMap { _ in
      StackThread.start(stackBytes: stackBytes) {
        while let index = results.claim() {
          results.store(index, parse(path: files[index].path, data: files[index].data))
        }
      }
    }
    for worker in workers { worker.join() }
    // Without a thread of its own, each file left is read on a large stack of its own.
    while let index = results.claim() { results.store(index, facts(path: files[index].path, data: files[index].data)) }
    return results.values
  }

  /// One file's facts on the current thread, which must have `stackBytes` of stack.
  private static func parse(path: String, data: Data) -> Result<SwiftFacts, ScanTrouble> {
    if let trouble = SourcePrecheck.trouble(data) { return .failure(trouble) }
    let tree = Parser.parse(source: String(decoding: data, as: UTF8.self))
    guard depth(of: tree, over: maxTreeDepth) <= maxTreeDepth else {
      return .failure(ScanTrouble("its syntax nests deeper than \(maxTreeDepth) levels; not read"))
    }
    return .success(SwiftFactCollector.facts(path: path, tree: tree))
  }

  /// Runs `body` on a thread of its own with `stackBytes` of stack, and waits for it.
  private static func onLargeStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
    let box = ResultBox<T>()
    let thread = StackThread.start(stackBytes: stackBytes) { box.value = body() }
    guard let thread else { preconditionFailure("no thread with \(stackBytes >> 20) MiB of stack could be started") }
    thread.join()
    return box.value!
  }
}

/// The value a thread hands back to the one that joins it (the join orders the accesses).
private final class ResultBox<T>: @unchecked Sendable {
  var value: T?
}

/// The results of parallel work, one slot per item, and the next item to claim, under one lock.
/// The caller reads `values` only after it has joined every worker.
private final class ResultSlots<T>: @unchecked Sendable {
  private let lock = DispatchQueue(label: "lifesim.scan.slots")
  private var slots: [T?]
  private var next = 0

  init(count: Int) { slots = Array(repeating: nil, count: count) }

  /// The next unclaimed index, nil when every item is claimed.
  func claim() -> Int? {
    lock.sync {
      guard next < slots.count else { return nil }
      next += 1
      return next - 1
    }
  }

  func store(_ index: Int, _ value: T) {
    lock.sync { slots[index] = value }
  }

  /// Every slot, once all are stored.
  var values: [T] {
    lock.sync { slots.map { $0! } }
  }
}

/// What the parser cannot read in time, found in one linear pass over the bytes (strings and
/// comments skipped) before it runs:
/// - swift-syntax's parser looks ahead at each `[` for a type (`[Int]`, `[3 of Int]`) twice over,
///   so its time doubles with each level of nested square brackets (an array literal 30 deep
///   takes hours): the work is estimated as the sum of 2^height over the bracket pairs;
/// - generic arguments nested thousands deep (`A<A<A<…>>>`) take it quadratic time: the depth of
///   `<` written right after a name or a `>` is counted, until a `{`, `}` or `;`.
enum SourcePrecheck {
  /// About a tenth of a second of the parser's lookahead in a release build.
  static let bracketBudget = 1 << 20
  /// Far past any real type's nesting.
  static let maxGenericDepth = 256

  static func trouble(_ data: Data) -> ScanTrouble? {
    var heights: [Int] = []   // for each open `[`, the height of the brackets inside it so far
    var cost = 0
    var generics = 0
    var previous: UInt8 = 0
    var scanner = SwiftTextScanner(bytes: Array(data))
    while let byte = scanner.nextCodeByte() {
      defer { previous = byte }
      switch byte {
      case UInt8(ascii: "["): heights.append(0)
      case UInt8(ascii: "]"):
        guard let inner = heights.popLast() else { continue }
        let height = inner + 1
        cost = min(Int.max / 2, cost + (1 << min(height, 40)))
        if !heights.isEmpty { heights[heights.count - 1] = max(heights[heights.count - 1], height) }
        if cost > bracketBudget { return ScanTrouble("its square brackets nest too deep for the Swift parser to read in time; not read") }
      case UInt8(ascii: "<"):
        guard isNameByte(previous) || previous == UInt8(ascii: ">") else { continue }
        generics += 1
        if generics > maxGenericDepth { return ScanTrouble("its generic arguments nest deeper than \(maxGenericDepth) levels; not read") }
      case UInt8(ascii: ">"): generics = max(0, generics - 1)
      case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: ";"): generics = 0
      default: break
      }
    }
    return nil
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte >= 0x80
  }
}

/// Steps over Swift's comments and string literals, handing back the bytes of code.
struct SwiftTextScanner {
  let bytes: [UInt8]
  var index = 0

  mutating func nextCodeByte() -> UInt8? {
    while index < bytes.count {
      let byte = bytes[index]
      let next = index + 1 < bytes.count ? bytes[index + 1] : 0
      if byte == UInt8(ascii: "/"), next == UInt8(ascii: "/") {
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
      } else if byte == UInt8(ascii: "/"), next == UInt8(ascii: "*") {
        index += 2
        while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) { index += 1 }
        index += 2
      } else if byte == UInt8(ascii: "\"") {
        skipString()
      } else {
        index += 1
        return byte
      }
    }
    return nil
  }

  /// A `"…"` or `"""…"""` literal, escapes included (interpolated code is skipped with it).
  private mutating func skipString() {
    let triple = index + 2 < bytes.count && bytes[index + 1] == UInt8(ascii: "\"") && bytes[index + 2] == UInt8(ascii: "\"")
    index += triple ? 3 : 1
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\\") { index += 2; continue }
      if !triple, byte == UInt8(ascii: "\n") { index += 1; return }
      if byte == UInt8(ascii: "\"") {
        if !triple { index += 1; return }
        if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\""), bytes[index + 2] == UInt8(ascii: "\"") { index += 3; return }
      }
      index += 1
    }
  }
}
