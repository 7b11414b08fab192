import EventStore
import ScriptHost

extension FolderWalk {
  /// What the walk found, sorted: a scenario calls `scenario { … }`, an app calls `app { … }`
  /// (or a scenario names it), a module is required by a scenario or an app; anything else
  /// is not a case, with the reason.
  func classified(searchPath: [String]) -> (scenarios: [ScenarioFile], files: [DiscoveredFile], inputs: [String]) {
    var apps = Set<FileIdentity>()
    var modules = Set<FileIdentity>()
    var inputs = found.map(\.path)
    for file in found where file.outline.callsScenario || file.outline.callsApp {
      if let app = file.outline.declaredApp {
        let path = scriptPath(app, besideScript: file.path)
        inputs.append(path)
        if let identity = FileIdentity(path: path) { apps.insert(identity) }
      }
      // A module that cannot be found is the case's own error when it runs.
      let required = (try? requiredModules(of: file.source, path: file.path, searchPath: searchPath)) ?? []
      inputs += required.map(\.path)
      for module in required { if let identity = FileIdentity(path: module.path) { modules.insert(identity) } }
    }
    var scenarios: [ScenarioFile] = []
    var files: [DiscoveredFile] = []
    for file in found {
      let identity = FileIdentity(path: file.path)
      let visible = VisibleText.escaped(file.path)
      if file.outline.callsScenario {
        scenarios.append(ScenarioFile(path: file.path, declaredName: file.outline.declaredName))
        files.append(DiscoveredFile(path: visible, role: .scenario))
      } else if file.outline.callsApp || identity.map(apps.contains) == true {
        files.append(DiscoveredFile(path: visible, role: .app))
      } else if identity.map(modules.contains) == true {
        files.append(DiscoveredFile(path: visible, role: .module))
      } else {
        files.append(Self.notACase(file, path: visible))
      }
    }
    for (index, file) in reported { files.insert(file, at: min(index, files.count)) }
    return (scenarios, files, inputs)
  }

  /// Why a file that is no scenario, app or module is not a case either.
  private static func notACase(_ file: Found, path: String) -> DiscoveredFile {
    if file.outline.callsVerbs {
      return DiscoveredFile(path: path, role: .notACase, why: "calls verbs but has no scenario{} line", isProblem: true)
    }
    if file.source.hasPrefix("---@meta") {
      return DiscoveredFile(path: path, role: .notACase, why: "Lua Language Server annotations (---@meta)")
    }
    return DiscoveredFile(path: path, role: .notACase, why: "no scenario{} or app{} call, and no scenario or app requires it")
  }
}
