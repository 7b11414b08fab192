import Foundation
import Testing
import TestSupport

/// A log read from a pipe (`lifesim verify <(zcat run.lifelog.gz)`) is read once, from its
/// start: the fast paths open a log twice and seek past its header, which a pipe cannot do.
@Suite(.serialized) struct PipedLogTests {
  /// `lifesim ARGS /dev/stdin` with the first `bytes` bytes of `log` (all of them when nil) piped in.
  private func piped(_ log: String, _ args: [String], bytes: Int? = nil) throws -> (status: Int32, out: String, err: String) {
    let feed = bytes.map { "head -c \($0)" } ?? "cat"
    return try runProcess("/bin/sh", ["-c", "log=$0 binary=$1; shift; \(feed) \"$log\" | \"$binary\" \"$@\" /dev/stdin", log, lifesimBinary] + args,
                          cwd: repositoryRoot.path, env: ["NO_COLOR": "1"])
  }

  @Test func verifyReplayAndExportReadAPipeAsTheyReadTheFile() throws {
    let log = try recordedRun("piped.lifelog")
    let size = try #require(try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int)
    for args in [["verify"], ["replay", "--state"], ["replay", "--json"], ["export", "--format", "chrome-trace"]] {
      let file = try lifesim(Array(args.prefix(1)) + [log] + args.dropFirst(), env: ["NO_COLOR": "1"])
      let pipe = try piped(log, args)
      #expect(pipe.status == file.status, "\(args): \(pipe.err)")
      #expect(pipe.out == file.out.replacingOccurrences(of: log, with: "/dev/stdin"), "\(args)")
    }
    let verified = try piped(log, ["verify"])
    #expect(verified.status == 0 && verified.out.hasPrefix("/dev/stdin: intact and complete: "), "\(verified.out)")
    let cut = try piped(log, ["verify"], bytes: size - 200)
    #expect(cut.status == 1 && cut.out.hasPrefix("/dev/stdin: cut off after event "), "\(cut.out) \(cut.err)")
  }
}
