import Foundation
import Testing
import Lifecycle
@testable import ScriptHost

/// The app side's names are declared once in Swift (`Callback` for handler keys, `AppHost.apiNames`
/// for the globals); the LuaLS types list exactly those.
@Suite struct AppAPITableTests {
  static func types() throws -> [Substring] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Scripts/types/app.lua")
    return try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
  }

  /// The `---@field name?` keys of the LuaLS class `name`.
  static func fields(ofClass name: String, in lines: [Substring]) -> [String] {
    guard let start = lines.firstIndex(where: { $0 == "---@class \(name)" }) else { return [] }
    return lines[(start + 1)...].prefix { $0.hasPrefix("---@field ") }.map { line in
      String(line.dropFirst("---@field ".count).prefix { $0 != "?" && $0 != " " })
    }
  }

  @Test("Scripts/types/app.lua lists every handler key of each receiver, in Callback's order")
  func handlerKeys() throws {
    let lines = try Self.types()
    #expect(Self.fields(ofClass: "AppDelegateHandlers", in: lines) == Callback.keys(for: .appDelegate))
    #expect(Self.fields(ofClass: "SceneDelegateHandlers", in: lines) == Callback.keys(for: .sceneDelegate))
    #expect(Self.fields(ofClass: "ControllerHandlers", in: lines) == Callback.keys(for: .viewController))
    #expect(Self.fields(ofClass: "URLSessionDelegateHandlers", in: lines) == Callback.keys(for: .urlSessionDelegate))
  }

  @Test("Scripts/types/app.lua declares exactly the app API's globals (require is Lua's own)")
  func globals() throws {
    let declared = try Self.types().compactMap { line -> String? in
      guard line.hasPrefix("function "), let paren = line.firstIndex(of: "(") else { return nil }
      let name = line[line.index(line.startIndex, offsetBy: 9)..<paren]
      return name.contains(":") || name.contains(".") ? nil : String(name)
    }
    #expect(declared.sorted() == AppHost.apiNames.filter { $0 != "require" })
  }
}
