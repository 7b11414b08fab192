import EventStore

/// Which Lua state a module is loaded in: the scenario's or the app's. Each side resolves
/// `require` from its own scripts' folders (then the search path) and keeps its own modules, so
/// a scenario and its app may each have a `util.lua` of their own.
///
/// A log's header names a module `require:<name>`, as it always has, unless the app's module of
/// that name is another file than the scenario's: the app's is then `app-require:<name>`. A log
/// written before the two sides were told apart holds only `require:` entries; both sides read
/// those, as both did when it was recorded, so it re-runs exactly what ran.
public enum ModuleSide: Sendable {
  case scenario, app

  /// The role of module `name` in one side's list of modules, and in a header for a module
  /// that is no other file than the scenario's of the same name.
  static func role(_ name: String) -> String { rolePrefix + name }
  static let rolePrefix = "require:"
  /// The role in a header of the app's module `name` when the scenario's `name` is another file.
  static func appRole(_ name: String) -> String { appRolePrefix + name }
  static let appRolePrefix = "app-require:"

  /// The module `name` this side loads, from the scripts a log's header embeds.
  func embedded(_ name: String, in scripts: [EmbeddedScript]) -> EmbeddedScript? {
    if self == .app, let own = scripts.first(where: { $0.role == Self.appRole(name) }) { return own }
    return scripts.first { $0.role == Self.role(name) }
  }

  /// The module entries of a header: the scenario's modules, then the app's, each once (a
  /// module both sides load from the same file is embedded once), the app's under `app-require:`
  /// where the scenario's module of the same name is another file.
  static func headerEntries(scenario: [EmbeddedScript], app: [EmbeddedScript]) -> [EmbeddedScript] {
    var entries = scenario
    for module in app {
      guard let same = scenario.first(where: { $0.role == module.role }) else {
        entries.append(module)
        continue
      }
      if same.path == module.path && same.source == module.source { continue }
      let name = String(module.role.dropFirst(rolePrefix.count))
      entries.append(EmbeddedScript(role: appRole(name), path: module.path, source: module.source))
    }
    return entries
  }

  /// A log header's scripts with its app replaced by `path` and the modules it requires
  /// (`replay --app`): the scenario and its modules stay as recorded; the new app's modules are
  /// embedded as the app's own (`app-require:`), so the app loads them whatever the scenario loads.
  public static func replacingApp(in scripts: [EmbeddedScript], path: String, source: String,
                                  modules: [EmbeddedScript]) -> [EmbeddedScript] {
    var kept = scripts.filter { $0.role != "app" && !$0.role.hasPrefix(appRolePrefix) }
    kept.append(EmbeddedScript(role: "app", path: path, source: source))
    for module in modules {
      let name = String(module.role.dropFirst(rolePrefix.count))
      kept.append(EmbeddedScript(role: appRole(name), path: module.path, source: module.source))
    }
    return kept
  }
}
