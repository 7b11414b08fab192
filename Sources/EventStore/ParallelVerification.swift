import JSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// `verify`'s fast path: the log is read in large chunks and checked in place on two threads.
/// While one chunk's lines are hashed onto the chain (`ChainChecker`) and checked as JSON in
/// parts (`JSONChecker`), the next chunk is read and its lines' form, sequence and time are
/// checked (`LineValidator`); the threads take these tasks as they become free.
///
/// It only ever says "intact" or "cut off". At the first thing it does not expect (damage of
/// any kind, or a line `LogReader` reads but no writer produces, such as a non-canonical
/// event), it gives up and `LogReader` reads the log again, so that every message, and the
/// count of valid events before damage, are exactly the reader's.
enum ParallelVerification {
  /// Parts a chunk's JSON is checked in, so that both threads can share that work.
  static let jsonParts = 4

  /// The verdict for a log that is intact or cut off; nil when it needs `LogReader`.
  /// `chunkBytes` is for the tests, which cut lines across chunks (by default, it depends on
  /// the log's size).
  static func check(path: String, chunkBytes: Int? = nil) -> LogVerification? {
    // A pipe, a header problem, a file that cannot be opened again: left to `LogReader`.
    guard let file = try? ChunkedLogFile.open(path, chunkBytes: chunkBytes) else { return nil }
    let fd = file.fd, chunkBytes = file.chunkBytes, chain = file.chain
    defer { POSIXFile.close(fd) }

    let validator = LineValidator(fd: fd)
    let checker = ChainChecker(chain: chain)
    let json = (0..<jsonParts).map { _ in JSONChecker() }
    var current = LineChunk(capacity: chunkBytes)
    var spare = LineChunk(capacity: chunkBytes)
    validator.fill(current, after: nil)
    while true {
      if validator.failed { return nil }
      let last = validator.ending != nil
      let (checking, filling) = (current, spare)
      DispatchQueue.concurrentPerform(iterations: 2 + jsonParts) { task in
        switch task {
        case 0: checker.check(checking)
        case 1: if !last { validator.fill(filling, after: checking) }
        default: json[task - 2].check(checking, part: task - 2, of: jsonParts)
        }
      }
      if checker.failed || json.contains(where: { $0.failed }) { return nil }
      if last { break }
      swap(&current, &spare)
    }
    switch validator.ending {
    case let .complete(trailer): return .intact(events: trailer.events)
    case let .cutOff(afterEvent): return .cutOff(afterEvent: afterEvent)
    case nil: return nil
    }
  }
}

/// Reads chunks and checks every line's form, sequence and time, as `LogReader` does; stops
/// at the first line it does not accept. In a chunk that keeps spans, it notes each event's.
final class LineValidator: @unchecked Sendable {
  // @unchecked: used by one thread at a time (`ParallelVerification.check` joins between chunks).
  private let fd: Int32
  private var rules = LineRules()
  private var eof = false
  private let kinds = KindTable()
  /// How the log ends, once the last chunk is read.
  private(set) var ending: LogEnding?
  /// Something needs `LogReader`'s exact reading.
  private(set) var failed = false

  init(fd: Int32) { self.fd = fd }

  /// Fills `chunk` with the bytes after `previous`'s complete lines and the next ones of the
  /// file, then validates its complete lines.
  func fill(_ chunk: LineChunk, after previous: LineChunk?) {
    chunk.empty()
    if let previous, previous.count > previous.cut {
      chunk.reserve(previous.count - previous.cut)
      chunk.bytes.update(from: previous.bytes + previous.cut, count: previous.count - previous.cut)
      chunk.count = previous.count - previous.cut
    }
    while true {
      while chunk.count < chunk.capacity, !eof {
        switch POSIXFile.read(fd, into: chunk.bytes + chunk.count, count: chunk.capacity - chunk.count) {
        case let .success(n):
          if n == 0 { eof = true }
          chunk.count += n
        case .failure:
          failed = true
          return
        }
      }
      chunk.cut = chunk.count
      while chunk.cut > 0, chunk.bytes[chunk.cut - 1] != 0x0A { chunk.cut -= 1 }
      if chunk.cut > 0 || eof { break }
      // One line fills the chunk: a long header-sized line, or one too long for the reader.
      if chunk.count > LogLimits.lineBytesMax {
        failed = true
        return
      }
      chunk.reserve(chunk.capacity * 2)
    }
    validateLines(chunk)
    guard !failed, eof else { return }
    if chunk.count > chunk.cut {
      // A partial last line: what a killed writer leaves, unless it follows the trailer.
      guard rules.trailer == nil, chunk.count - chunk.cut <= LogLimits.lineBytesMax else {
        failed = true
        return
      }
      ending = .cutOff(afterEvent: rules.order.lastSeq)
    } else if let trailer = rules.trailer {
      ending = .complete(trailer)
    } else {
      ending = .cutOff(afterEvent: rules.order.lastSeq)
    }
  }

  private func validateLines(_ chunk: LineChunk) {
    // Locals, written back once: a property of a class costs an exclusivity check each access.
    var lines = chunk.lines, spans = chunk.spans
    chunk.lines = []
    var rules = self.rules
    let keepsSpans = chunk.keepsSpans
    defer {
      chunk.lines = lines
      chunk.spans = spans
      self.rules = rules
    }
    var start = 0
    while start < chunk.cut {
      let line = chunk.bytes + start
      guard let newline = memchr(line, 0x0A, chunk.cut - start) else { break }
      let length = line.distance(to: newline.assumingMemoryBound(to: UInt8.self))
      rules.lineNumber += 1
      guard rules.trailer == nil, length <= LogLimits.lineBytesMax,
            let accepted = rules.accept(line, length: length, kinds: kinds) else {
        failed = true
        return
      }
      lines.append((start + accepted.bodyEnd, start + length, accepted.prefix))
      if keepsSpans, let event = accepted.event {
        spans.append(EventSpan(start: start, end: start + accepted.bodyEnd, kindStart: event.kindStart, seq: event.seq, t: event.t))
      }
      start += length + 1
    }
  }
}

/// What `LineValidator` knows of the lines so far, as one value.
private struct LineRules {
  var order = EventOrder()
  var prefixes = EventPrefixReader()
  var lineNumber = 1
  var trailer: LogTrailer?

  /// A line accepted: where its body ends (its `}` is written there) and, for an event, what
  /// the JSON check may skip, and its `seq`, `t` and where its kind's text starts.
  struct Accepted {
    var bodyEnd: Int
    var prefix: EventPrefix?
    var event: (seq: Int64, t: Int64, kindStart: Int)?
  }

  /// Checks one line but its JSON (`JSONChecker`) and hash (`ChainChecker`); nil when
  /// `LogReader` must read the line.
  mutating func accept(_ line: UnsafeMutablePointer<UInt8>, length: Int, kinds: KindTable) -> Accepted? {
    // The form of `,"h":"…"}` only: the 64 digits are compared with the chain's lowercase hex.
    guard length > LogReader.suffixCount, LogScanner.hasHashSuffixFrame(UnsafeRawBufferPointer(start: line, count: length)) else {
      return nil
    }
    let bodyEnd = length - LogReader.suffixCount
    line[bodyEnd] = UInt8(ascii: "}")
    let body = UnsafeBufferPointer(start: line, count: bodyEnd + 1)
    guard let (seq, t, kindStart) = prefixes.read(UnsafeRawBufferPointer(body)) else {
      return acceptTrailer(body) ? Accepted(bodyEnd: bodyEnd, prefix: nil, event: nil) : nil
    }
    var kindEnd = kindStart
    while kindEnd < bodyEnd, line[kindEnd] != UInt8(ascii: "\"") { kindEnd += 1 }
    // The suffix (72 bytes) follows the body: `KindTable` may read 16 bytes from the kind's start.
    guard kindEnd < bodyEnd, kinds.contains(line + kindStart, count: kindEnd - kindStart) else { return nil }
    do {
      try order.accept(seq: seq, t: t, line: lineNumber)
    } catch {
      return nil
    }
    return Accepted(bodyEnd: bodyEnd, prefix: Self.prefix(line, kindStart: kindStart, kindEnd: kindEnd), event: (seq, t, kindStart))
  }

  /// What the JSON check may skip of an event line that `LogScanner.eventPrefix` read and whose
  /// kind is known: all of `{"seq":N,"t":T,"kind":"K"`, unless a number has a leading zero
  /// (which JSON refuses): then nothing.
  private static func prefix(_ line: UnsafeMutablePointer<UInt8>, kindStart: Int, kindEnd: Int) -> EventPrefix? {
    let seqStart = EventPrefix.Layout.seqStart
    var seqEnd = seqStart
    while line[seqEnd] &- UInt8(ascii: "0") < 10 { seqEnd += 1 }
    let tStart = seqEnd + EventPrefix.Layout.timeAfterSeq
    let tEnd = kindStart - EventPrefix.Layout.kindAfterTime
    guard line[seqStart] != UInt8(ascii: "0") || seqEnd - seqStart == 1,
          line[tStart] != UInt8(ascii: "0") || tEnd - tStart == 1 else { return nil }
    return EventPrefix(seqEnd: seqEnd, kindStart: kindStart, kindEnd: kindEnd)
  }

  /// The trailer, as `LogReader` reads it: a JSON object of kind `end` that counts the events
  /// (and that starts with its kind, as `LogScanner` looks for it).
  private mutating func acceptTrailer(_ body: UnsafeBufferPointer<UInt8>) -> Bool {
    // Where `LogScanner` looks for it too: a line in another order is damage to it.
    guard LogScanner.starts(UnsafeRawBufferPointer(body), with: LogScanner.trailerPrefix),
          let parsed = try? JSONParser.parse(body), case .object = parsed, parsed["kind"]?.stringValue == "end",
          let read = try? LogReader.decodeTrailer(parsed, number: lineNumber),
          (try? order.checkTrailer(read, line: lineNumber)) != nil else { return false }
    trailer = read
    return true
  }
}

/// The kinds `EventKind` knows, as words that a kind's raw text (compared as `LogReader` does,
/// unescaped) is matched against with one probe or a few, not a comparison per kind.
struct KindTable {
  /// Names longer than this are not kinds.
  private static let bytesMax = 16
  /// Slots of the table; a power of two, well over the number of kinds, so a probe ends.
  private static let slots = 32
  /// Each kind in the first free slot from its words' slot; a count of 0 marks a free one.
  private let table: [(count: Int, head: UInt64, tail: UInt64)]

  init() {
    var table = [(count: Int, head: UInt64, tail: UInt64)](repeating: (0, 0, 0), count: Self.slots)
    precondition(EventKind.allCases.count * 2 <= Self.slots, "more event kinds than KindTable keeps")
    for kind in EventKind.allCases {
      var name = Array(kind.rawValue.utf8)
      let count = name.count
      precondition(count > 0 && count <= Self.bytesMax, "an event kind KindTable cannot take")
      name += [UInt8](repeating: 0, count: Self.bytesMax - count)
      let words = name.withUnsafeBytes { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
      let head = UInt64(littleEndian: words.0), tail = UInt64(littleEndian: words.1)
      var slot = Self.slot(count: count, head: head)
      while table[slot].count != 0 { slot = (slot + 1) & (Self.slots - 1) }
      table[slot] = (count, head, tail)
    }
    self.table = table
  }

  /// Whether the `count` bytes at `text` name a kind; 16 bytes from `text` must be readable.
  func contains(_ text: UnsafePointer<UInt8>, count: Int) -> Bool {
    guard count <= Self.bytesMax else { return false }
    let raw = UnsafeRawPointer(text)
    let head = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) & Self.mask(keeping: count)
    let tail = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) & Self.mask(keeping: count - 8)
    return table.withUnsafeBufferPointer { table in
      var slot = Self.slot(count: count, head: head)
      while table[slot].count != 0 {
        if table[slot].count == count, table[slot].head == head, table[slot].tail == tail { return true }
        slot = (slot + 1) & (Self.slots - 1)
      }
      return false
    }
  }

  private static func slot(count: Int, head: UInt64) -> Int {
    Int(truncatingIfNeeded: ((head ^ UInt64(truncatingIfNeeded: count)) &* 0x9E37_79B9_7F4A_7C15) >> 59) & (slots - 1)
  }

  /// The low `bytes` bytes of a word (none below 0, all from 8).
  private static func mask(keeping bytes: Int) -> UInt64 {
    bytes <= 0 ? 0 : bytes >= 8 ? ~0 : (1 << (8 * UInt64(bytes))) - 1
  }
}

/// Links each validated line onto the hash chain and compares it with the line's `h`.
final class ChainChecker: @unchecked Sendable {
  // @unchecked: used by one thread at a time (`ParallelVerification.check` joins between chunks).
  /// The last digest checked (hex): the link before the next chunk's first line.
  private let previous = UnsafeMutablePointer<UInt8>.allocate(capacity: HashChain.hexBytes)
  /// A line's `h` is not the chain's.
  private(set) var failed = false

  init(chain: HashChain) {
    if chain.previous.count == HashChain.hexBytes {
      previous.initialize(from: chain.previous, count: HashChain.hexBytes)
    } else {
      previous.initialize(repeating: 0, count: HashChain.hexBytes)
      failed = true
    }
  }

  deinit { previous.deallocate() }

  func check(_ chunk: LineChunk) {
    guard !failed else { return }
    guard Self.linked(chunk, lines: chunk.lines.indices, after: previous) else {
      failed = true
      return
    }
    advance(past: chunk)
  }

  /// Whether each of `chunk`'s `lines` links onto the one before, the chunk's first onto
  /// `previous` (64 hex digits). Each line's own `h`, once it matches, is the digest the next
  /// line links to, so that parts of a chunk can be checked at once, each after the `h` before it.
  static func linked(_ chunk: LineChunk, lines: Range<Int>, after previous: UnsafePointer<UInt8>) -> Bool {
    let bytes = UnsafeRawPointer(chunk.bytes), first = lines.lowerBound
    return chunk.lines.withUnsafeBufferPointer { all in
      LinkHasher.mismatch(count: lines.count) { k in
        let i = first + k, line = all[i]
        let recorded = bytes + line.bodyEnd + LineChunk.digestAfterBody
        guard i > 0 else {
          return LinkHasher.Link(previous: UnsafeRawPointer(previous), body: UnsafeRawBufferPointer(start: bytes, count: line.bodyEnd + 1),
                                 recorded: recorded)
        }
        let before = all[i - 1]
        return LinkHasher.Link(previous: bytes + before.bodyEnd + LineChunk.digestAfterBody,
                               body: UnsafeRawBufferPointer(start: bytes + before.lineEnd + 1, count: line.bodyEnd - before.lineEnd),
                               recorded: recorded)
      } == nil
    }
  }

  /// The digest the next chunk's first line links to.
  var last: UnsafePointer<UInt8> { UnsafePointer(previous) }

  /// Takes `chunk`'s lines, already checked, as linked: the next chunk goes on from its last.
  func advance(past chunk: LineChunk) {
    if let last = chunk.lastDigest { previous.update(from: last, count: HashChain.hexBytes) }
  }
}

/// Checks a share of a chunk's lines as JSON, as `LogReader` does (the bodies with their `}`):
/// `QuickJSONCheck` first, and `JSONParser` for the lines it is not sure of.
private final class JSONChecker: @unchecked Sendable {
  // @unchecked: each part has its own checker, used by one thread at a time.
  private let quick = QuickJSONCheck()
  private var keyScratch: [Range<Int>] = []
  /// A line is not valid JSON.
  private(set) var failed = false

  func check(_ chunk: LineChunk, part: Int, of parts: Int) {
    let lines = chunk.lines
    let first = lines.count * part / parts, end = lines.count * (part + 1) / parts
    for index in first..<end {
      let start = index == 0 ? 0 : lines[index - 1].lineEnd + 1
      let count = lines[index].bodyEnd + 1 - start
      // The line's `"h":"…"}` follows the body: more than `QuickJSONCheck.readsPastEnd` bytes.
      if let prefix = lines[index].prefix {
        if quick.acceptsObject(chunk.bytes + start, count: count, checkedKeys: prefix.keys, rest: Int(prefix.rest)) { continue }
      } else if quick.accepts(chunk.bytes + start, count: count) {
        continue
      }
      do {
        try JSONParser.validate(UnsafeBufferPointer(start: chunk.bytes + start, count: count), scratch: &keyScratch)
      } catch {
        failed = true
        return
      }
    }
  }
}
