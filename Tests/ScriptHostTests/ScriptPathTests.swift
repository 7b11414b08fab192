import Testing
@testable import ScriptHost

/// `ScriptLoader.normalize`, which names modules in log headers and finds the bundled library:
/// `.` and `..` resolved textually, empty segments dropped, a relative path kept relative.
@Suite struct ScriptPathTests {
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
