import EventStore
import JSON
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
  /// (`TerminalText.visible`: a path's control characters cannot reach it).
  public var line: String { "warning: \(code): \(TerminalText.visible(message))" }

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
