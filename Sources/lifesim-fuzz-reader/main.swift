// libFuzzer entry point for the log readers. Build and run (docs/testing.md):
//   swift build -c release --product lifesim-fuzz-reader --sanitize=fuzzer
//   SWIFT_BACKTRACE=enable=no .build/release/lifesim-fuzz-reader -max_total_time=60 fuzz-corpus/
// Every input is written to a file and read to its end by LogReader, LogScanner and
// BackgroundLogScanner: any outcome but a crash or a hang is fine, except that where
// LogReader accepts a whole log, the scanners must hand out the same events and ending,
// that BackgroundLogScanner must hand out LogScanner's events and words on every input,
// and that verify's parallel path must give LogReader's verdict on every input.
import EventStore

#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLogReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let path = "/tmp/lifesim-fuzz-\(getpid()).lifelog"
  guard case let .success(fd) = POSIXFile.openForWriting(path, exclusive: false) else { return 0 }
  _ = POSIXFile.truncate(fd)
  _ = POSIXFile.writeAll(fd, UnsafeRawBufferPointer(start: data, count: size))
  POSIXFile.close(fd)
  // verify's two-thread path must agree with LogReader on every input: where it gives a
  // verdict at all, the same one, and through its fall-back the same message everywhere.
  let byReading = LogVerification.checkByReading(path: path)
  if let parallel = LogVerification.checkInParallel(path: path), parallel != byReading {
    fatalError("verify in parallel says \(parallel), LogReader says \(byReading)")
  }
  guard LogVerification.check(path: path) == byReading else { fatalError("verify disagrees with LogReader") }
  // Folding's stream must hand out what LogReader does in place, and end, or fail, in its words.
  let inPlace = readInPlace(path, streamed: false)
  guard readInPlace(path, streamed: true) == inPlace else {
    fatalError("LogEventStream disagrees with LogReader")
  }
  guard readInBatches(path) == inPlace else { fatalError("LogEventStream's batches disagree with LogReader") }
  // The scanner ahead on its thread must hand out what the scanner does in place, and end,
  // or fail, in its words, whether it reads chunks in place or has the scanner read on.
  for chain in [false, true] {
    guard scanned(path, checksChain: chain, ahead: true) == scanned(path, checksChain: chain, ahead: false) else {
      fatalError("BackgroundLogScanner disagrees with LogScanner (chain: \(chain))")
    }
  }
  guard let accepted = readWhole(path) else { return 0 }
  // The same events through the chain-checking scanner, in place and on a thread of its own.
  for background in [false, true] {
    guard let scanner = try? LogScanner(path: path, checksChain: true) else {
      fatalError("the scanner refused a header the reader accepted")
    }
    let next: () throws -> LogScanner.EventLine?
    let ending: () -> LogEnding?
    if background {
      let b = BackgroundLogScanner(scanner)
      next = { try b.next() }
      ending = { b.ending }
    } else {
      next = { try scanner.next() }
      ending = { scanner.ending }
    }
    do {
      for (seq, t, body) in accepted.events {
        guard let e = try next(), e.seq == seq, e.t == t, Array(e.bodyWithoutBrace) + [UInt8(ascii: "}")] == body else {
          fatalError("the scanner disagrees with the reader before event \(seq)")
        }
      }
      guard try next() == nil else { fatalError("the scanner found events after the reader's last") }
      guard ending() == accepted.ending else { fatalError("the scanner ends the log otherwise: \(String(describing: ending()))") }
    } catch {
      fatalError("the scanner refused a log the reader accepted: \(error)")
    }
  }
  return 0
}

/// Every event of a log LogReader reads to its end without a problem; nil otherwise.
private func readWhole(_ path: String) -> (events: [(Int64, Int64, [UInt8])], ending: LogEnding)? {
  guard let reader = try? LogReader(path: path, mode: .integrity) else { return nil }
  var events: [(Int64, Int64, [UInt8])] = []
  do {
    while let line = try reader.next() {
      if case let .event(e) = line { events.append((e.seq, e.t, reader.lastBody)) }
    }
  } catch {
    return nil
  }
  return reader.ending.map { (events, $0) }
}

/// Each event (place, kind's start, body) a scanner hands out, then how it ends or what it
/// says is wrong: a `LogScanner`, or a `BackgroundLogScanner` (`ahead`).
private func scanned(_ path: String, checksChain: Bool, ahead: Bool) -> [String] {
  var out: [String] = []
  do {
    let scanner = try LogScanner(path: path, checksChain: checksChain)
    let source: any EventLineSource = ahead ? BackgroundLogScanner(scanner) : scanner
    while let e = try source.next() { out.append("\(e.seq) \(e.t) \(e.kindStart ?? -1) \(Array(e.bodyWithoutBrace))") }
    out.append("\(String(describing: source.ending))")
  } catch {
    out.append(error.description)
  }
  return out
}

/// As `readInPlace` through `LogEventStream`, a batch at a time.
private func readInBatches(_ path: String) -> [String] {
  var out: [String] = []
  let strings = EventStrings()
  do {
    let stream = try LogEventStream(path: path)
    while let batch = try stream.nextBatch() {
      for i in 0..<batch.count {
        let e = batch.event(i, strings: strings)
        out.append("\(e.seq) \(e.t) \(e.kind) \(Array(e.body))")
      }
    }
    out.append("\(String(describing: stream.ending))")
  } catch {
    out.append(error.description)
  }
  return out
}

/// Each event (place, kind, body) a reader in place hands out, then how it ends or what it
/// says is wrong: through `LogEventStream`, or through `LogReader` in `.inPlace` mode.
private func readInPlace(_ path: String, streamed: Bool) -> [String] {
  var out: [String] = []
  do {
    if streamed {
      let stream = try LogEventStream(path: path)
      while let e = try stream.next() { out.append("\(e.seq) \(e.t) \(e.kind) \(Array(e.body))") }
      out.append("\(String(describing: stream.ending))")
    } else {
      let reader = try LogReader(path: path, mode: .inPlace)
      while let line = try reader.next() {
        if case .event = line { out.append("\(reader.lastView.seq) \(reader.lastView.t) \(reader.lastView.kind) \(reader.lastBody)") }
      }
      out.append("\(String(describing: reader.ending))")
    }
  } catch {
    out.append(error.description)
  }
  return out
}
