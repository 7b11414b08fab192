import Foundation
import Testing

/// The chrome trace's own JSON writer (templates, a digit-pair routine, strings checked for
/// escapes eight bytes at a time) against the log's canonical JSON rules, byte for byte.
@Suite struct ChromeTraceBytesTests {
  /// A string as canonical JSON writes it: `"`, `\` and the control characters escaped
  /// (`\n`, `\r`, `\t`, `\b`, `\f`, the rest `\u00xx`), every other byte as it is.
  static func canonical(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      default:
        if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
      }
    }
    return out + "\""
  }

  /// Messages whose byte to escape sits at each place of an eight-byte word and in the tail
  /// after the last whole word, and some with none (copied whole), as the app's `log` calls.
  static let messages: [String] = {
    var list = ["plain", "exactly8", "sixteen bytes ok", "é ü 日本 ✔ (no escape)", ""]
    for special in ["\"", "\\", "\n", "\t", "\u{01}", "\u{1F}", "\r", "\u{08}", "\u{0C}"] {
      for at in [0, 3, 7, 8, 12, 15, 16, 19] {
        list.append(String(repeating: "a", count: at) + special + String(repeating: "z", count: 5))
      }
    }
    return list
  }()

  /// Lua source for `s`: every byte as a decimal escape, so any byte survives the script.
  static func luaLiteral(_ s: String) -> String { "\"" + s.utf8.map { "\\\($0)" }.joined() + "\"" }

  @Test func everyStringIsEscapedAsTheLogEscapesIt() throws {
    let calls = Self.messages.map { "  log(\(Self.luaLiteral($0)))" }.joined(separator: "\n")
    let dir = try scriptFolder("trace-bytes", [
      "app.lua": """
        app { root = "Main" }
        function AppDelegate.didFinishLaunchingWithOptions(application, options)
        \(calls)
          return true
        end
        controller "Main" {}
        """,
      "scenario.lua": "scenario { ios = 17, app = \"app.lua\" }\nlaunch()\n",
    ])
    let log = dir + "/run.lifelog"
    let run = try lifesim(["run", dir + "/scenario.lua", "-o", log, "-q"])
    #expect(run.status == 0, "\(run.err)")
    let trace = try lifesim(["export", log, "--format", "chrome-trace"])
    #expect(trace.status == 0, "\(trace.err)")
    let logText = try String(contentsOfFile: log, encoding: .utf8)
    for message in Self.messages {
      // The log's writer escapes the message as canonical JSON; the trace's the call's words.
      #expect(logText.contains("\"message\":" + Self.canonical(message)), "log: \(message.debugDescription)")
      #expect(trace.out.contains("\"call\":" + Self.canonical("log " + message)), "trace: \(message.debugDescription)")
    }
    let object = try JSONSerialization.jsonObject(with: Data(trace.out.utf8)) as? [String: Any]
    let events = object?["traceEvents"] as? [[String: Any]] ?? []
    let logged = events.compactMap { ($0["args"] as? [String: Any])?["call"] as? String }.filter { $0.hasPrefix("log ") }
    #expect(logged == Self.messages.map { "log " + $0 })
  }

  /// Numbers of every length from 1 to 16 digits (virtual times of a run forty years long) are
  /// written as the log writes them: each instant's `ts` is its `t_us`, digit for digit.
  @Test func numbersOfEveryLengthKeepTheirDigits() throws {
    let dir = try scriptFolder("trace-numbers", [
      "scenario.lua": """
        scenario { ios = 17 }
        launch()
        local seconds = 1
        for _ = 1, 7 do
          home()
          advance(seconds)
          launch()
          seconds = seconds * 10
        end
        for _ = 1, 40 do
          home()
          advance(31536000)
          launch()
        end
        """,
    ])
    let log = dir + "/run.lifelog"
    let run = try lifesim(["run", dir + "/scenario.lua", "-o", log, "-q"])
    #expect(run.status == 0 || run.status == 1, "\(run.err)")
    let trace = try lifesim(["export", log, "--format", "chrome-trace", "--clock", "virtual"])
    #expect(trace.status == 0, "\(trace.err)")
    var lengths: Set<Int> = []
    for line in trace.out.split(separator: "\n") where line.contains("\"ph\":\"i\"") {
      guard let ts = Self.number(after: "\"ts\":", in: line), let t = Self.number(after: "\"t_us\":", in: line) else {
        Issue.record("no ts or t_us in \(line)")
        continue
      }
      #expect(ts == t, "\(line)")
      lengths.insert(t.count)
    }
    #expect(lengths.isSuperset(of: [1, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]), "\(lengths.sorted())")
  }

  /// The digits after `key` in `line`, as written.
  static func number(after key: String, in line: Substring) -> Substring? {
    guard let range = line.range(of: key) else { return nil }
    let digits = line[range.upperBound...].prefix { $0.isNumber }
    return digits.isEmpty ? nil : digits
  }
}
