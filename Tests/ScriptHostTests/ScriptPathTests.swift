import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif
@testable import ScriptHost

/// `ScriptLoader.normalize`, which names modules in log headers and finds the bundled library:
/// `.` and `..` resolved textually, empty segments dropped, a relative path kept relative.
@Suite struct ScriptPathTests {
  /// A read error is the script's trouble, named, not the end of a script cut short that could
  /// run and pass (/proc/self/mem opens, and its first read fails with EIO).
  @Test func aReadErrorIsTroubleNotTheEndOfTheScript() {
    #expect(throws: ScriptError("/proc/self/mem: cannot read: Input/output error")) { try ScriptLoader.readFile("/proc/self/mem") }
  }

  @Test func pathsNormalizeTextually() {
    let cases: [(String, String)] = [
      ("/a/b/../c", "/a/c"), ("a/./b", "a/b"), ("a//b/", "a/b"), ("../x", "../x"), ("/../x", "/x"),
      ("a/../..", ".."), ("../../a/../b", "../../b"), ("/", "/"), ("", ""), (".", ""), ("/usr/share/lifesim/lib", "/usr/share/lifesim/lib"),
    ]
    for (path, expected) in cases {
      #expect(ScriptLoader.normalize(path) == expected, "\(path)")
    }
  }
}

/// `readScriptFile` reads in chunks sized from the file: every size comes back whole, and the
/// 4 MiB limit and UTF-8 check hold across chunk boundaries.
@Suite struct ScriptFileReadingTests {
  private func written(_ name: String, _ bytes: [UInt8]) throws -> String {
    let path = temporaryPath("lifesim-read", name)
    guard let f = fopen(path, "wb") else { throw ScriptError("cannot create \(path)") }
    defer { fclose(f) }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, bytes.count, f) }
    return path
  }

  @Test func everySizeIsReadWhole() throws {
    for size in [0, 1, 4095, 4096, 65535, 65536, 65537, 200_000] {
      let text = String((0..<size).map { i in Character(Unicode.Scalar(UInt8(0x61 + i % 26))) })
      let path = try written("size-\(size).lua", Array(text.utf8))
      #expect(try readScriptFile(path) == text, "\(size) bytes")
    }
  }

  @Test func theLimitAndUTF8HoldAcrossChunks() throws {
    let tooLarge = try written("large.lua", [UInt8](repeating: 0x20, count: (4 << 20) + 1))
    #expect(throws: ScriptError(file: tooLarge, "larger than 4 MiB")) { try readScriptFile(tooLarge) }
    let atLimit = try written("limit.lua", [UInt8](repeating: 0x20, count: 4 << 20))
    #expect(try readScriptFile(atLimit).utf8.count == 4 << 20)
    // A two-byte character split between the first 64 KiB chunk and the next.
    let split = try written("split.lua", [UInt8](repeating: 0x20, count: 65535) + Array("é".utf8))
    #expect(try readScriptFile(split).hasSuffix(" é"))
    let bad = try written("bad.lua", [UInt8](repeating: 0x20, count: 70_000) + [0xFF])
    #expect(throws: ScriptError(file: bad, "not valid UTF-8")) { try readScriptFile(bad) }
  }
}
