import JSON

import Dispatch

/// `LogEventStream`'s fast path: a thread of its own reads the log in chunks, as `verify` does
/// (`LineValidator`: each line's form, sequence, time and kind), and has each chunk's lines
/// hashed onto the chain and scanned as JSON in parts on both cores (`FoldPart`), while it
/// reads the next chunk. Only a chunk whose every line checks out is handed over, with each
/// event's members located: the caller only reads them.
///
/// At the first thing it does not accept, it hands over `gaveUp` instead of that chunk, and
/// `LogReader` must read the log from there: every message stays the reader's.
///
/// Limits: chunks of at most `chunkBytes` (grown for a longer line), at most `chunksInFlight`
/// of them read ahead of the caller or held by it, so memory stays bounded however long the log.
final class FoldPipeline: @unchecked Sendable {
  // @unchecked: `validator`, `checker` and the chunk being filled are used only by the
  // producing thread, each chunk's parts by their tasks until it is handed over; the hand-off
  // state only inside `lock.sync`.
  static let chunksInFlight = 4
  /// Parts a chunk is hashed and scanned in, so that both cores share the work.
  static let parts = 4

  /// What the reading thread hands over, in order.
  enum Delivery {
    /// The next chunk, every line checked (the trailer, if any, is its last line).
    case chunk(FoldChunk)
    /// The log ends so, after the chunks before.
    case end(LogEnding)
    /// Something after the chunks before needs `LogReader`.
    case gaveUp
  }

  private let fd: Int32
  private let chunkBytes: Int
  /// Makes the follower of each part of a chunk made (nil: none).
  private let makeFollower: (() -> any FoldPartFollower)?
  private let validator: LineValidator
  private let checker: ChainChecker

  private let queue = DispatchQueue(label: "lifesim.log.fold")
  private let lock = DispatchQueue(label: "lifesim.log.fold.lock")
  /// Chunks that may still be made or reused. Made at 0 and signalled up to the limit:
  /// libdispatch traps when a semaphore is freed below its initial value.
  private let slots = DispatchSemaphore(value: 0)
  private let available = DispatchSemaphore(value: 0)
  private var ready: [Delivery] = []
  private var recycled: [FoldChunk] = []
  private var cancelled = false
  /// The ids of the layouts the parts' memos keep, shared by all of this stream's chunks; they
  /// carry this stream's number among the process's.
  private let layoutIDs = LayoutIDs(streamNumber: FoldPipeline.nextStreamNumber())
  /// Streams opened so far in the process, only inside `streamsLock` (not an `Atomic`: that
  /// needs macOS 15, and one lock a stream costs nothing).
  nonisolated(unsafe) private static var streamsOpened: UInt64 = 0
  private static let streamsLock = DispatchQueue(label: "lifesim.log.fold.streams")

  private static func nextStreamNumber() -> UInt64 {
    streamsLock.sync {
      streamsOpened &+= 1
      return streamsOpened % MemberLayoutMemo.streamsMax
    }
  }

  /// Starts reading `file` after its header; takes over its `fd`. Each part checked is then
  /// handed to its follower, from `makeFollower`, if any.
  init(_ file: ChunkedLogFile, makeFollower: (() -> any FoldPartFollower)? = nil) {
    fd = file.fd
    chunkBytes = file.chunkBytes
    self.makeFollower = makeFollower
    validator = LineValidator(fd: fd)
    checker = ChainChecker(chain: file.chain)
    for _ in 0..<Self.chunksInFlight { slots.signal() }
    if checker.failed {
      ready = [.gaveUp]
      available.signal()
      return
    }
    queue.async { self.produce() }
  }

  deinit { POSIXFile.close(fd) }

  /// The next delivery, waiting for the reading thread if it is behind.
  func take() -> Delivery {
    available.wait()
    return lock.sync { ready.removeFirst() }
  }

  /// Gives back a chunk the caller is done with.
  func recycle(_ chunk: FoldChunk) {
    lock.sync { recycled.append(chunk) }
    slots.signal()
  }

  /// Stops the reading thread at its next wait (the caller no longer wants events).
  func cancel() {
    lock.sync { cancelled = true }
    slots.signal()
  }

  /// The reading thread: validates chunk after chunk and has each one's parts checked on the
  /// global queue while it validates the next, then hands over the one before once its parts
  /// are done, until the log ends, something needs the reader, or the caller is gone. No chunk
  /// waits for another's parts: a part links onto the line before it, whose `h` is in the
  /// bytes, so the cores go from one chunk's parts to the next's without a barrier.
  private func produce() {
    guard var current = freeChunk() else { return }
    validator.fill(current.lines, after: nil)
    var checking: (chunk: FoldChunk, done: DispatchGroup)?
    while true {
      if validator.failed { return handOverLast(checking, then: .gaveUp) }
      let ending = validator.ending
      let done = check(current, after: checking?.chunk)
      if let checking, !handOver(checking.chunk, once: checking.done) { return }
      checking = (current, done)
      if let ending { return handOverLast(checking, then: .end(ending)) }
      guard let next = freeChunk() else { return }
      validator.fill(next.lines, after: current.lines)
      current = next
    }
  }

  /// Has `chunk`'s parts hashed onto the chain, its first line onto the last of `previous`
  /// (the chain's start when nil), and scanned, each handed to its follower, on the global
  /// queue; done when they all are.
  private func check(_ chunk: FoldChunk, after previous: FoldChunk?) -> DispatchGroup {
    chunk.link(after: previous, chainStart: checker.last)
    let done = DispatchGroup(), parts = chunk.parts, lines = chunk.lines.lines.count
    for (task, part) in parts.enumerated() {
      DispatchQueue.global().async(group: done) {
        part.check(chunk.lines, lines: (lines * task / parts.count)..<(lines * (task + 1) / parts.count),
                   after: chunk.previous)
        if !part.failed, let follower = part.follower {
          follower.follow(LogEventBatch(chunk, part: task, index: 0, endPart: task + 1))
        }
      }
    }
    return done
  }

  /// Hands over `chunk` once its parts are `done`, or `gaveUp` if one of them failed; whether
  /// the chunk went.
  private func handOver(_ chunk: FoldChunk, once done: DispatchGroup) -> Bool {
    done.wait()
    if chunk.parts.contains(where: { $0.failed }) {
      deliver(.gaveUp)
      return false
    }
    deliver(.chunk(chunk))
    return true
  }

  /// Hands over the chunk being checked, if any, and then `last`.
  private func handOverLast(_ checking: (chunk: FoldChunk, done: DispatchGroup)?, then last: Delivery) {
    if let checking, !handOver(checking.chunk, once: checking.done) { return }
    deliver(last)
  }

  /// A chunk to fill, once fewer than `chunksInFlight` are in use; nil once cancelled.
  private func freeChunk() -> FoldChunk? {
    slots.wait()
    let (stop, reused) = lock.sync { (cancelled, recycled.popLast()) }
    if stop { return nil }
    if let reused { return reused }
    return FoldChunk(capacity: chunkBytes, layoutIDs: layoutIDs, makeFollower: makeFollower)
  }

  private func deliver(_ delivery: Delivery) {
    lock.sync { if !cancelled { ready.append(delivery) } }
    available.signal()
  }
}

/// A chunk of the log, its lines checked, and each event's place, kind and members.
final class FoldChunk: @unchecked Sendable {
  // @unchecked: filled by the reading thread's tasks, each part by one, before it is handed over.
  let lines: LineChunk
  let parts: [FoldPart]
  /// The 64 hex digits this chunk's first line links onto: its own copy, as the chunk before
  /// may be handed over and filled again while this one's parts are checked.
  let previous = UnsafeMutablePointer<UInt8>.allocate(capacity: HashChain.hexBytes)

  /// The parts' memos take their layouts' ids from `layoutIDs`, the stream's; each part's
  /// follower is made by `makeFollower`, if any.
  init(capacity: Int, layoutIDs: LayoutIDs, makeFollower: (() -> any FoldPartFollower)?) {
    lines = LineChunk(capacity: capacity)
    parts = (0..<FoldPipeline.parts).map { _ in
      FoldPart(bytes: capacity / FoldPipeline.parts, layoutIDs: layoutIDs, follower: makeFollower?())
    }
    previous.initialize(repeating: 0, count: HashChain.hexBytes)
  }

  deinit { previous.deallocate() }

  /// Links this chunk's first line onto the `h` of `before`'s last line (onto what `before`
  /// links onto, if it has no lines), or onto `chainStart` when it is the first chunk.
  func link(after before: FoldChunk?, chainStart: UnsafePointer<UInt8>) {
    let source = before.map { $0.lines.lastDigest ?? UnsafePointer($0.previous) } ?? chainStart
    previous.update(from: source, count: HashChain.hexBytes)
  }
}

/// One event of a chunk, where `FoldPart` found it.
struct FoldEventLine {
  var seq: Int64
  var t: Int64
  var kind: EventKind
  /// The body with its closing brace, in the chunk's bytes.
  var bodyStart: Int
  var bodyCount: Int
  /// Its members, in the part's `members`.
  var firstMember: Int
  var memberCount: Int
  /// Its keys' bits (`PlainObjectScan.bit`).
  var keys: UInt64
  /// Its `MemberLayoutMemo` id; 0 for none.
  var layoutID: UInt64
}

/// A share of a chunk's lines: hashed onto the chain, and each event's JSON checked and its
/// members located, as `LogReader` reads them in place (`PlainObjectScan` first, `JSONParser`
/// for the lines it leaves).
final class FoldPart: @unchecked Sendable {
  // @unchecked: used by one task at a time; read by the caller only once handed over.
  private(set) var events: [FoldEventLine] = []
  private(set) var members: UnsafeMutableBufferPointer<JSONMember>
  private var memberCount = 0
  /// A line does not link, is not JSON, or its kind is unknown.
  private(set) var failed = false
  private var keys: [Range<Int>] = []
  private var parsed: [JSONMember] = []
  private let layoutMemo: MemberLayoutMemo
  /// What works on this part's events once they check out (`FoldPartFollower`).
  let follower: (any FoldPartFollower)?

  /// A part of about `bytes` of lines. Its storage is made for them at once: grown by
  /// doubling, each step touched fresh pages, and page faults were a sixth of the CPU of a
  /// 95 k-event log.
  init(bytes: Int, layoutIDs: LayoutIDs, follower: (any FoldPartFollower)?) {
    layoutMemo = MemberLayoutMemo(ids: layoutIDs)
    self.follower = follower
    events.reserveCapacity(LineChunk.linesMax(bytes: bytes))
    members = .allocate(capacity: max(Self.membersMin, bytes / Self.bytesPerMember))
  }

  /// Members made room for at least, and the bytes a member takes in a typical line (the
  /// bench's log: about 21), for the room made at once.
  private static let membersMin = 1024
  private static let bytesPerMember = 16

  deinit { members.deallocate() }

  /// Event `i` of this part, in `chunk`.
  func event(_ i: Int, in chunk: LineChunk, strings: UnsafeMutablePointer<StringTable>) -> InPlaceEvent {
    let e = events[i]
    return InPlaceEvent(seq: e.seq, t: e.t, kind: e.kind, body: UnsafeRawBufferPointer(start: chunk.bytes + e.bodyStart, count: e.bodyCount),
                        members: UnsafeBufferPointer(rebasing: members[e.firstMember..<(e.firstMember + e.memberCount)]),
                        keys: e.keys, layoutID: e.layoutID == 0 ? nil : e.layoutID, strings: strings)
  }

  /// Checks `lines` of `chunk`, the first linking onto `previous`.
  func check(_ chunk: LineChunk, lines: Range<Int>, after previous: UnsafePointer<UInt8>) {
    events.removeAll(keepingCapacity: true)
    memberCount = 0
    failed = !ChainChecker.linked(chunk, lines: lines, after: previous)
    guard !failed else { return }
    var start = lines.lowerBound == 0 ? 0 : chunk.lines[lines.lowerBound - 1].lineEnd + 1
    for (bodyEnd, lineEnd, prefix) in chunk.lines[lines] {
      defer { start = lineEnd + 1 }
      let body = UnsafeRawBufferPointer(start: chunk.bytes + start, count: bodyEnd + 1 - start)
      // The validator leaves out the prefix of the trailer, and of an event with a leading
      // zero, which is not JSON.
      guard let prefix else {
        if LogScanner.eventPrefix(body) == nil { continue }
        failed = true
        return
      }
      guard let (kind, count, keys, id) = located(body, prefix: prefix) else {
        failed = true
        return
      }
      let seq = Self.integer(body, members[memberCount - count].value)
      let t = Self.integer(body, members[memberCount - count + 1].value)
      events.append(FoldEventLine(seq: seq, t: t, kind: kind, bodyStart: start, bodyCount: body.count,
                              firstMember: memberCount - count, memberCount: count, keys: keys, layoutID: id ?? 0))
    }
  }

  /// The digits at `range` (the validator read them, at most 18), as a number.
  private static func integer(_ body: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int64 {
    var value: Int64 = 0
    for i in range { value = value &* 10 &+ Int64(body[i] &- UInt8(ascii: "0")) }
    return value
  }

  /// The event's kind, the number of its members, appended to `members`, and their keys'
  /// bits (`PlainObjectScan.bit`; all set when the parser located them), when its JSON and
  /// kind are as `LogReader` accepts them, and its layout's id if kept; nil otherwise. A line
  /// met before (the same bytes from the kind's value on) is not scanned again.
  // Inlined: returned through memory, its four results were read back as one wide load, which
  // waited for the narrow stores to retire (a third of `check`'s own time).
  @inline(__always)
  private func located(_ body: UnsafeRawBufferPointer, prefix: EventPrefix) -> (EventKind, Int, UInt64, UInt64?)? {
    if members.count - memberCount < 64 { grow(members.count * 2) }
    let free = UnsafeMutableBufferPointer(rebasing: members[memberCount...])
    let key = MemberLayoutMemo.Key(body, anchor: prefix.kindValueStart)
    if let key, let known = layoutMemo.find(key, into: UnsafeMutableBufferPointer(rebasing: free[3..<(3 + MemberLayoutMemo.membersMax)])) {
      (free[0], free[1], free[2]) = prefix.members
      memberCount += 3 + known.count
      return (known.kind, 3 + known.count, known.keyBits, known.id)
    }
    let scanned = PlainObjectScan.eventMembers(body, prefix: prefix, into: UnsafeMutableBufferPointer(rebasing: free[..<64]))
    var found = scanned?.count
    if found == nil {
      do {
        try JSONParser.validate(body.assumingMemoryBound(to: UInt8.self), scratch: &keys, members: &parsed)
      } catch {
        return nil
      }
      if members.count - memberCount < parsed.count { grow(memberCount + parsed.count) }
      _ = UnsafeMutableBufferPointer(rebasing: members[memberCount...]).initialize(fromContentsOf: parsed)
      found = parsed.count
    }
    // The validator checked that the line starts {"seq":…,"t":…,"kind":"; the kind runs to the next quote.
    guard let found, found >= 3 else { return nil }
    let value = members[memberCount + 2].value
    guard let kind = EventKind(utf8: UnsafeRawBufferPointer(rebasing: body[(value.lowerBound + 1)..<(value.upperBound - 1)])) else {
      return nil
    }
    var id: UInt64?
    if let key, let scanned {
      id = layoutMemo.remember(key, members: UnsafeBufferPointer(rebasing: free[3..<found]), kind: kind, keyBits: scanned.keys)
    }
    memberCount += found
    return (kind, found, scanned?.keys ?? ~0, id)
  }

  private func grow(_ needed: Int) {
    let (storage, capacity) = RawStorage.grown(members.baseAddress!, keeping: memberCount, capacity: members.count, needed: needed)
    members = UnsafeMutableBufferPointer(start: storage, count: capacity)
  }
}
