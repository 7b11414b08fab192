import Foundation
import Testing
@testable import LuaRuntime

/// Issue 16, start-up: the sandbox prelude ships compiled (`PreludeBytecode`), since compiling it
/// was a quarter of a one-verb run's instructions. The embedded bytes must be what this build's
/// Lua makes of this very prelude, and any other text must be compiled instead.
@Suite struct PreludeBytecodeTests {
  private static let generatedFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Sources/LuaRuntime/PreludeBytecode.swift").standardized.path

  @Test func theEmbeddedBytecodeIsTheCompiledPrelude() throws {
    let compiled = Sandbox.compile(Sandbox.prelude)
    if ProcessInfo.processInfo.environment["LIFESIM_WRITE_PRELUDE_BYTECODE"] == "1" {
      try Self.source(compiled).write(toFile: Self.generatedFile, atomically: true, encoding: .utf8)
      return
    }
    let regenerate = "run LIFESIM_WRITE_PRELUDE_BYTECODE=1 swift test --filter PreludeBytecodeTests, then build again"
    #expect(PreludeBytecode.release == Sandbox.luaRelease, "compiled by Lua \(PreludeBytecode.release): \(regenerate)")
    #expect(PreludeBytecode.sourceHash == Sandbox.sourceHash(Sandbox.prelude), "the prelude changed: \(regenerate)")
    #expect(PreludeBytecode.bytes == compiled, "\(regenerate)")
    #expect(Sandbox.embeddedBytecodeFits(Sandbox.prelude))
    #expect(Sandbox.preludeBytecode == compiled)
  }

  @Test func anotherTextOrReleaseIsNotServedTheEmbeddedBytecode() {
    #expect(!Sandbox.embeddedBytecodeFits(Sandbox.prelude + " "))
    #expect(!Sandbox.embeddedBytecodeFits(String(Sandbox.prelude.dropLast())))
    #expect(Sandbox.sourceHash("a") != Sandbox.sourceHash("b"))
    #expect(Sandbox.sourceHash("") == 0xcbf2_9ce4_8422_2325)
    #expect(Sandbox.sourceHash("a") == 0xaf63_dc4c_8601_ec8c)  // FNV-1a's published value for "a"
  }

  /// The generated file: the release, the text's hash, the bytes 24 to a line.
  private static func source(_ bytes: [UInt8]) -> String {
    let rows = stride(from: 0, to: bytes.count, by: 24).map { start in
      "    " + bytes[start..<min(start + 24, bytes.count)].map { String(format: "0x%02x,", $0) }.joined(separator: " ")
    }
    return """
      // Written by `LIFESIM_WRITE_PRELUDE_BYTECODE=1 swift test --filter PreludeBytecodeTests`; do not edit.

      /// The sandbox prelude compiled ahead of time (see `Sandbox.preludeBytecode`).
      enum PreludeBytecode {
        /// The Lua release that compiled it.
        static let release = "\(Sandbox.luaRelease)"
        /// `Sandbox.sourceHash` of the text it was compiled from.
        static let sourceHash: UInt64 = 0x\(String(Sandbox.sourceHash(Sandbox.prelude), radix: 16))
        static let bytes: [UInt8] = [
      \(rows.joined(separator: "\n"))
        ]
      }

      """
  }
}
