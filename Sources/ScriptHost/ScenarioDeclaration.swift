import Lifecycle
import LuaRuntime

/// What `scenario { … }` declares, read strictly: unknown keys and values of the wrong type
/// or out of range are refused with the key and what it accepts.
public struct ScenarioDeclaration: Sendable {
  public internal(set) var ios: Int?
  public internal(set) var scenes: Bool?
  /// `device = "ipad"`; nil: not declared (an iPhone).
  public internal(set) var device: Profile.Device?
  /// `ios_range = "15-26"`: the releases the scenario applies to (`lifesim test` skips the others).
  public internal(set) var iosRange: IOSVersionSet?
  var seed: Int64?
  var app: String?
  /// `strict = true`: any diagnostic fails the run, as `--strict` does.
  public internal(set) var strict = false
  /// In name order, so applying them never depends on table order.
  var knobs: [RunPlan.Knob] = []
  /// `choose = { ["AppDelegate.swift:8"] = true }`: the app's `choose` outcomes the scenario fixes.
  var choices = ForcedChoices()

  /// What the declaration says about the run's profile, as a layer of its `RunPlan`.
  public var planLayer: RunPlan.ScenarioLayer { .init(ios: ios, scenes: scenes, device: device, knobs: knobs, choices: choices) }

  static let keys = ["app", "choose", "device", "ios", "ios_range", "knobs", "name", "scenes", "seed", "strict"]

  /// Reads the table at `idx`; the error is the message without a location.
  static func read(_ vm: LuaVM, at idx: Int32) -> Result<ScenarioDeclaration, ScriptError> {
    guard vm.type(idx) == .table else { return .failure(ScriptError("scenario: expected a table: scenario { ios = \(IOSRelease.defaultVersion) }")) }
    if let problem = vm.unknownKey(inTableAt: idx, allowed: keys) { return .failure(ScriptError("scenario: \(problem)")) }
    var d = ScenarioDeclaration()
    // `tableField`: the value is meant to be a table, so a table with a wrong entry is not also
    // told it is "not a table".
    func field(_ key: String, tableField: Bool = false, _ read: () -> String?) -> ScriptError? {
      vm.rawGet(idx, key)
      defer { vm.pop() }
      guard vm.type(-1) != .nil else { return nil }
      let given = tableField && vm.type(-1) == .table ? "" : ", not \(vm.describeValue(-1))"
      return read().map { ScriptError("scenario: \(key) must be \($0)\(given)") }
    }
    let problems: [ScriptError?] = [
      // `name` is for people reading the script and its reports; only its type is checked.
      field("name") { vm.type(-1) == .string ? nil : "a string" },
      field("app") {
        guard vm.type(-1) == .string else { return "the app script's path (a string)" }
        d.app = vm.string(-1); return nil
      },
      field("device") {
        guard vm.type(-1) == .string, let device = vm.string(-1).flatMap(Profile.Device.init(rawValue:)) else {
          return "\"iphone\" or \"ipad\""
        }
        d.device = device; return nil
      },
      field("ios") {
        guard let v = vm.wholeNumber(-1), IOSRelease.versions.contains(Int(v)) else { return IOSRelease.Axis.version.expected }
        d.ios = Int(v); return nil
      },
      field("ios_range") {
        let expected = "releases and ranges such as \"15-26\" or \"12,15-17\""
        guard vm.type(-1) == .string, let text = vm.string(-1) else { return expected }
        do throws(ScenarioError) { d.iosRange = try IOSVersionSet(parsing: text) } catch { return "\(expected) (\(error.message))" }
        return nil
      },
      field("scenes") {
        guard vm.type(-1) == .boolean else { return "true or false" }
        d.scenes = vm.bool(-1); return nil
      },
      field("seed") {
        guard let v = vm.wholeNumber(-1) else { return "a whole number from \(Int64.min) to \(Int64.max)" }
        d.seed = v; return nil
      },
      field("strict") {
        guard vm.type(-1) == .boolean else { return "true or false" }
        d.strict = vm.bool(-1); return nil
      },
      field("knobs", tableField: true) {
        guard vm.type(-1) == .table else { return "a table: knobs = { backgroundTaskAllowance = 40 }" }
        let (knobs, problem) = readKnobs(vm)
        d.knobs = knobs
        return problem
      },
      field("choose", tableField: true) {
        let expected = "a table of sites and outcomes: choose = { [\"AppDelegate.swift:8\"] = true }"
        guard vm.type(-1) == .table else { return expected }
        let (choices, problem) = readChoices(vm)
        d.choices = choices
        return problem.map { "\(expected) (\($0))" }
      },
    ]
    if let first = problems.compactMap({ $0 }).first { return .failure(first) }
    return .success(d)
  }

  /// The `choose` table on top of the stack: sites to booleans; or what is wrong with it.
  private static func readChoices(_ vm: LuaVM) -> (choices: ForcedChoices, problem: String?) {
    let table = vm.absIndex(-1)
    var choices = ForcedChoices()
    var problem: String?
    vm.pushNil()
    while vm.next(table) {
      defer { vm.pop() }
      guard vm.type(-2) == .string, let site = vm.string(-2), vm.type(-1) == .boolean else {
        problem = problem ?? "each site a string, each outcome true or false"
        continue
      }
      do { try choices.force(site, vm.bool(-1)) } catch { problem = problem ?? error.description }
    }
    return (choices, problem)
  }

  /// The knobs table on top of the stack: names to booleans, numbers or strings; or what it must be.
  private static func readKnobs(_ vm: LuaVM) -> (knobs: [RunPlan.Knob], problem: String?) {
    let table = vm.absIndex(-1)
    var found: [RunPlan.Knob] = []
    var problem: String?
    vm.pushNil()
    while vm.next(table) {
      defer { vm.pop() }
      guard vm.type(-2) == .string, let name = vm.string(-2) else {
        problem = problem ?? "a table of knob names: knobs = { backgroundTaskAllowance = 40 }"
        continue
      }
      switch vm.type(-1) {
      case .boolean: found.append(.init(name, .bool(vm.bool(-1))))
      case .number: found.append(.init(name, .number(vm.number(-1) ?? .nan)))
      case .string: found.append(.init(name, .string(vm.string(-1) ?? "")))
      default: problem = problem ?? "a table of knob values (true/false, numbers or names); \(name) is \(vm.describeValue(-1))"
      }
    }
    return (found.sorted { $0.name < $1.name }, problem)
  }
}
