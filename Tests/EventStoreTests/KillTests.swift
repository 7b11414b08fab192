import Foundation
import Testing
import TestSupport
@testable import EventStore

/// A child process writes events as fast as it can and reports each flush; it is
/// SIGKILLed at a random moment. Every log must verify as cut off after an event
/// no earlier than the last one the child reported flushed: nothing lost, nothing damaged.
@Suite struct KillTests {
  private static let bench: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(".build/debug/lifesim-bench")

  @Test("SIGKILL at 24 random moments leaves a verifiable prefix")
  func killAtRandomMoments() throws {
    var rng = SplitMix64(seed: 2026)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-kill-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    for round in 0..<24 {
      let path = dir.appendingPathComponent("kill-\(round).lifelog").path
      try? FileManager.default.removeItem(atPath: path)
      let child = Process()
      child.executableURL = Self.bench
      child.arguments = ["write-forever", path]
      let out = Pipe()
      child.standardOutput = out
      try child.run()
      usleep(useconds_t(5_000 + rng.next() % 60_000))
      kill(child.processIdentifier, SIGKILL)
      child.waitUntilExit()
      #expect(child.terminationReason == .uncaughtSignal)
      let reported = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .split(separator: "\n").last { $0.hasPrefix("flushed ") }
        .flatMap { Int64($0.dropFirst("flushed ".count)) } ?? 0
      let result = LogVerification.check(path: path)
      if case .unreadable = result, reported == 0, (try? Data(contentsOf: URL(fileURLWithPath: path)))?.count ?? 0 < 4096 {
        continue  // killed before the header was whole: a prefix of zero lines, nothing was reported
      }
      guard case let .cutOff(after) = result else {
        Issue.record("round \(round): \(result.description)")
        continue
      }
      #expect(after >= reported, "round \(round): cut off after \(after), but \(reported) were reported flushed")
    }
  }
}
