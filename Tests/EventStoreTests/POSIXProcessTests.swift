import Testing

@testable import EventStore

/// `POSIXProcess` runs git for `scan --compare git:REV`: its input and output must never
/// deadlock, a program that stops reading must not end the caller, and limits must hold.
@Suite struct POSIXProcessTests {
  @Test func aProgramGetsItsInputWhilePrintingIt() throws {
    // Four MiB through `cat`: far more than a pipe holds, so input and output must interleave.
    let input = (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let finished = try POSIXProcess.run(["cat"], input: input, outputBytesMax: 8 << 20).get()
    #expect(finished.status == 0)
    #expect(finished.output == input)
  }

  @Test func theExitStatusAndOutputAreThoseOfTheProgram() throws {
    let finished = try POSIXProcess.run(["sh", "-c", "printf 'a\\nb'; echo oops >&2; exit 3"], outputBytesMax: 100).get()
    #expect(finished.status == 3)
    #expect(finished.output == Array("a\nb".utf8))
    #expect(try POSIXProcess.run(["lifesim-no-such-program"], outputBytesMax: 100).get().status == 127)
  }

  @Test func aProgramThatReadsNothingEndsNeitherTheWritingNorTheCaller() throws {
    let finished = try POSIXProcess.run(["true"], input: [UInt8](repeating: 65, count: 1 << 20), outputBytesMax: 100).get()
    #expect(finished.status == 0)
    #expect(finished.output.isEmpty)
  }

  @Test func outputPastItsLimitStopsTheProgram() throws {
    let finished = try POSIXProcess.run(["sh", "-c", "yes"], outputBytesMax: 1000).get()
    #expect(finished.output.count == 1001)
    #expect(finished.status == -1)
  }
}
