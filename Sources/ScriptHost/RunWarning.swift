import EventStore
import Lifecycle

/// Something about a run that does not change its verdict but that its author should know: a
/// scenario that checks nothing, an expectation that holds vacuously on this profile. `run`
/// prints each as `warning: <code>: <message>` after the outcome; `lifesim test` reports them
/// per case. The codes are fixed (a later `--strict` fails on them); the messages may change.
public struct RunWarning: Equatable, Sendable {
  /// `no_expectations`, `vacuous_expectation`.
  public let code: String
  public let message: String

  public init(code: String, message: String) {
    self.code = code
    self.message = message
  }

  /// `warning: no_expectations: s.lua checks nothing (no expect_* call ran)`, for a terminal
  /// (`printable`: a path's control characters cannot reach it).
  public var line: String { "warning: \(code): \(Self.printable(message))" }

  /// `text` with each control character (C0, DEL, C1) written `\x01`, so that a file name
  /// cannot move a terminal's cursor or change its colours.
  public static func printable(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      if isControl(scalar) {
        let hex = String(scalar.value, radix: 16, uppercase: false)
        out += "\\x" + (hex.count < 2 ? "0" : "") + hex
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
  }

  /// `{"code":…,"message":…}`, as JSON reports carry it.
  public var json: JSONValue { .object([("code", .string(code)), ("message", .string(message))]) }

  /// `no_expectations`: a scenario that passed without one expectation.
  static func noExpectations(_ scenario: String) -> RunWarning {
    RunWarning(code: "no_expectations", message: "\(scenario) checks nothing (no expect_* call ran)")
  }

  /// `vacuous_expectation`: an `expect_no_calls` at `at` naming callbacks `profile` never delivers.
  static func vacuous(_ patterns: [CallPattern], at: String, on profile: Profile) -> RunWarning {
    let names = patterns.map(\.text).joined(separator: ", ")
    return RunWarning(code: "vacuous_expectation",
                      message: "\(at): expect_no_calls holds vacuously for \(names): UIKit never calls "
                        + "\(patterns.count == 1 ? "it" : "them") on \(Callback.profileName(profile))")
  }
}
