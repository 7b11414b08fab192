import Lifecycle
import LuaRuntime

/// Reading a scenario verb's arguments from Lua, as its `VerbSpec` declares them; every
/// refusal is a script error at the scenario line (`file:line: verb: …`).
extension ScenarioHost {
  /// The input `spec` makes from the arguments on the stack.
  func read(_ spec: VerbSpec, _ vm: LuaVM) throws -> Input {
    var arguments = VerbArguments()
    for (position, argument) in spec.arguments.enumerated() {
      let idx = Int32(position + 1)
      switch argument {
      case let .string(key, expected, _):
        guard vm.type(idx) == .string, let s = vm.string(idx) else { throw refusal(vm, idx, spec.name, expected) }
        if s.isEmpty { throw scriptError(vm, "\(spec.name): expected \(expected), not an empty string") }
        arguments.values[key] = .text(s)
      case let .choice(key, words, expected):
        arguments.values[key] = .text(try word(vm, idx, spec.name, words: words, expected: expected))
      case let .tab(key, expected):
        guard let i = vm.integer(idx) else { throw refusal(vm, idx, spec.name, expected) }
        arguments.values[key] = .number(i)
      case let .seconds(key):
        arguments.values[key] = .number(try seconds(vm, idx, spec.name))
      case let .scene(key, expected):
        guard let n = vm.integer(idx), n >= 1 else { throw refusal(vm, idx, spec.name, expected) }
        arguments.values[key] = .number(n)
      case let .optionalChoice(key, words, expected):
        guard vm.type(idx) != .nil, vm.type(idx) != .none else { continue }
        arguments.values[key] = .text(try word(vm, idx, spec.name, words: words, expected: expected))
      case let .boolean(key):
        guard vm.type(idx) == .boolean else { throw refusal(vm, idx, spec.name, "true or false") }
        arguments.values[key] = .flag(vm.bool(idx))
      case let .options(options):
        guard try self.options(vm, idx, spec.name, options) else {
          // Only now the required options' names: `launch()`, each cycle of a long scenario, made them for nothing.
          let required = options.filter(\.required).map { "\($0.key) = …" }
          if !required.isEmpty { throw scriptError(vm, "\(spec.name): expected a table: \(spec.name) { \(required.joined(separator: ", ")) }") }
          continue
        }
        for option in options {
          if let value = try read(option, vm, idx, spec.name) { arguments.values[option.key] = value }
          else if option.required { throw scriptError(vm, "\(spec.name): \(option.key) is required ({ \(option.key) = … })") }
        }
      case let .action(key, argumentsKey):
        guard vm.type(idx) == .string, let s = vm.string(idx) else {
          throw scriptError(vm, "\(spec.name): expected an action name (a string), not \(vm.describeValue(idx))")
        }
        arguments.values[key] = .text(s)
        arguments.values[argumentsKey] = .list(try actionArguments(vm, from: idx + 1, spec.name))
      }
    }
    let accepted = Int32(spec.arguments.count)
    let takesTheRest = spec.arguments.contains { if case .action = $0 { return true } else { return false } }
    if !takesTheRest, vm.top > accepted {
      let count = accepted == 0 ? "no arguments" : accepted == 1 ? "1 argument" : "\(accepted) arguments"
      throw scriptError(vm, "\(spec.name): takes \(count), not \(vm.top) (the extra one is \(vm.describeValue(accepted + 1)))")
    }
    guard let input = spec.make(arguments) else { throw scriptError(vm, "\(spec.name): unexpected arguments") }
    return input
  }

  /// Option `option` of the table at `idx` (nil: absent).
  private func read(_ option: VerbOption, _ vm: LuaVM, _ idx: Int32, _ verb: String) throws -> VerbValue? {
    switch option.kind {
    case .flag:
      return .flag(try flagOption(vm, idx, option.key, verb))
    case .string:
      vm.rawGet(idx, option.key)
      defer { vm.pop() }
      guard vm.type(-1) != .nil else { return nil }
      guard vm.type(-1) == .string, let s = vm.string(-1) else {
        throw scriptError(vm, "\(verb): \(option.key) must be a string, not \(vm.describeValue(-1))")
      }
      return .text(s)
    case let .choice(words):
      vm.rawGet(idx, option.key)
      defer { vm.pop() }
      guard vm.type(-1) != .nil else { return nil }
      return .text(try word(vm, -1, verb, words: words, expected: VerbSpec.oneOf(words)))
    case .scene:
      vm.rawGet(idx, option.key)
      defer { vm.pop() }
      guard vm.type(-1) != .nil else { return nil }
      guard let n = vm.integer(-1), n >= 1 else {
        throw scriptError(vm, "\(verb): \(option.key) must be a window number (1 names the window Scene#1 opened), not \(vm.describeValue(-1))")
      }
      return .number(n)
    }
  }

  /// The options table at `idx` (absent, or a table with only `allowed` keys), else a script error.
  private func options(_ vm: LuaVM, _ idx: Int32, _ verb: String, _ options: [VerbOption]) throws -> Bool {
    switch vm.type(idx) {
    case .nil, .none: return false
    case .table:
      if let problem = vm.unknownKey(inTableAt: idx, allowed: options.map(\.key).sorted()) { throw scriptError(vm, "\(verb): \(problem)") }
      return true
    default:
      let allowed = options.map(\.key).sorted()
      throw scriptError(vm, "\(verb): expected an options table ({ \(allowed.map { "\($0) = …" }.joined(separator: ", ")) }), not \(vm.describeValue(idx))")
    }
  }

  /// Option `key` of the table at `idx` as a boolean (absent: false), else a script error.
  private func flagOption(_ vm: LuaVM, _ idx: Int32, _ key: String, _ verb: String) throws -> Bool {
    vm.rawGet(idx, key)
    defer { vm.pop() }
    switch vm.type(-1) {
    case .nil: return false
    case .boolean: return vm.bool(-1)
    default: throw scriptError(vm, "\(verb): \(key) must be true or false, not \(vm.describeValue(-1))")
    }
  }

  private func seconds(_ vm: LuaVM, _ idx: Int32, _ name: String) throws -> Int64 {
    guard let s = vm.number(idx), s.isFinite, s >= 0, s <= 86_400 * 365 else {
      throw scriptError(vm, "\(name): seconds must be a number from 0 to 31536000")
    }
    return VirtualTime.microseconds(seconds: s)
  }

  /// The string at `idx` if it is one of `words`, else `verb: expected <expected>, not <what was given>`.
  private func word(_ vm: LuaVM, _ idx: Int32, _ verb: String, words: [String], expected: String) throws -> String {
    guard vm.type(idx) == .string, let s = vm.string(idx), words.contains(s) else { throw refusal(vm, idx, verb, expected) }
    return s
  }

  /// `verb: expected <expected>, not <the value at idx>` at the scenario line.
  private func refusal(_ vm: LuaVM, _ idx: Int32, _ verb: String, _ expected: String) -> Error {
    scriptError(vm, "\(verb): expected \(expected), not \(vm.describeValue(idx))")
  }

  /// The string at `idx` as one of `E`'s cases, else `verb: expected one of …`.
  func choice<E: RawRepresentable & CaseIterable>(_ vm: LuaVM, _ idx: Int32, _ verb: String, _: E.Type) throws -> E
  where E.RawValue == String {
    guard let s = vm.string(idx), let e = E(rawValue: s) else {
      throw scriptError(vm, "\(verb): expected \(VerbSpec.oneOf(E.allCases.map(\.rawValue)))")
    }
    return e
  }
}
