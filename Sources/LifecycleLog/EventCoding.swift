import EventStore
import JSON
import Lifecycle

// The JSON form of every event (docs/log-format.md lists them). Encoding
// writes straight into the log's canonical writer; decoding reads a LogEvent
// back, so replay needs nothing but the log.

extension EventBody {
  /// Writes this event's members after `seq`, `t` and `kind`.
  public func encodeFields(into w: inout CanonicalJSONWriter) {
    switch self {
    case let .inputPerformed(input, at):
      Self.encode(input, into: &w)
      if let at { w.field("at", at) }
    case let .applicationStateChanged(from, to):
      w.field("name", literal: "applicationState"); w.field("from", from.rawValue); w.field("to", to.rawValue)
    case let .sceneActivationChanged(scene, from, to):
      w.field("name", literal: "activationState"); w.field("target", scene)
      w.field("from", from.rawValue); w.field("to", to.rawValue)
    case let .sceneConnected(scene, session):
      w.field("name", literal: "sceneConnected"); w.field("target", scene)
      if let session { w.field("session", session) }
    case let .sceneDisconnected(scene): w.field("name", literal: "sceneDisconnected"); w.field("target", scene)
    case let .sceneSessionChanged(created, session):
      w.field("name", literal: "sceneSession"); w.field("to", created ? "created" : "discarded")
      if let session { w.field("session", session) }
    case let .rootBuilt(container, navigation, controllers, _):
      w.field("name", literal: "rootViewController"); w.field("container", container.rawValue)
      w.field("navigation", navigation)
      w.key("targets"); w.beginArray(); for c in controllers { w.string(c) }; w.endArray()
    case let .pushed(c, _): w.field("name", literal: "push"); w.field("target", c)
    case let .popped(c, _): w.field("name", literal: "pop"); w.field("target", c)
    case let .presented(c, style, nav, _):
      w.field("name", literal: "present"); w.field("target", c); w.field("style", style.rawValue)
      if nav { w.field("navigation", true) }
    case let .dismissed(c, _): w.field("name", literal: "dismiss"); w.field("target", c)
    case let .tabSelected(index, c, _): w.field("name", literal: "selectTab"); w.field("target", c); w.field("index", index)
    case let .protectedDataChanged(available): w.field("name", literal: "protectedDataAvailable"); w.field("to", available)
    case let .restorationChanged(change): change.encodeFields(into: &w)
    case let .processStarted(mode, state):
      w.field("name", literal: "launchProcess"); w.field("mode", mode.rawValue); w.field("state", state.rawValue)
    case let .launchContinued(state): w.field("name", literal: "continueLaunch"); w.field("state", state.rawValue)
    case .suspended: w.field("name", literal: "suspend")
    case .resumed: w.field("name", literal: "resume")
    case let .terminated(term):
      w.field("name", literal: "terminate"); w.field("reason", term.reason.rawValue)
      if let code = term.code { w.field("code", code) }
      w.field("description", term.description)
    case let .callbackDelivered(cb, target, handled, depth, arguments):
      w.field("name", cb.signature); w.field("target", target); w.field("handled", handled)
      w.field("depth", depth)
      if let url = arguments.url { w.field("url", url) }
      if let completion = arguments.completion { w.field("completion", completion) }
      if let animated = arguments.animated { w.field("animated", animated) }
      if let payload = arguments.payload { w.field("payload", payload) }
      if let scene = arguments.scene { w.field("scene", scene) }
    case let .returned(name, target, used, depth, value):
      w.field("name", name); w.field("target", target); w.field("used_us", used); w.field("depth", depth)
      if let value { w.field("value", value) }
    case let .appCalled(call, at):
      call.encodeFields(into: &w)
      if let at { w.field("at", at) }
    case let .notificationPosted(name, handled, depth):
      w.field("name", name); w.field("handled", handled); w.field("depth", depth)
    case let .crashed(name, target, message, traceback):
      w.field("name", name); w.field("target", target); w.field("reason", TerminationReason.crash.rawValue)
      w.field("description", message); w.field("traceback", traceback)
    case let .expectationChecked(name, passed, message, at):
      w.field("name", name); w.field("passed", passed); w.field("message", message)
      if let at { w.field("at", at) }
    case let .noted(name, message, code):
      w.field("name", name); w.field("message", message)
      if let code { w.field("code", code) }
    }
    if let scene = viewControllerScene { w.field("scene", scene) }
  }

  /// An input's members: its verb's name, then each argument under its key, in the row's order.
  private static func encode(_ input: Input, into w: inout CanonicalJSONWriter) {
    // As the verb table declares the verb: each argument under its key, in the row's order.
    let spec = input.spec, arguments = input.arguments
    w.field("name", spec.name)
    spec.forEachRecorded(arguments) { key, value in
      w.key(dynamic: key)
      switch value {
      case let .text(s): w.string(s)
      case let .number(n): w.int(n)
      case let .flag(b): w.bool(b)
      case let .list(l): w.value(.array(l))
      }
    }
  }

}

extension Event {
  /// The event's canonical line body without `h` (`{"seq":…,"t":…,"kind":…,…}`), as the log writes it.
  public func canonicalBody(seq: Int64, into w: inout CanonicalJSONWriter) {
    w.removeAll()
    w.beginObject()
    w.field("seq", seq)
    w.field("t", t)
    w.field("kind", body.kind.rawValue)
    body.encodeFields(into: &w)
    w.endObject()
  }

  /// `canonicalBody`'s bytes for an event that comes after the one `opening` wrote last: its
  /// `seq` and `t` from the digits `opening` keeps, as the log's writer writes them (writing
  /// them as integers was a third of `replay --verify`'s checking).
  package func canonicalBody(after opening: inout EventOpening, into w: inout CanonicalJSONWriter) {
    w.removeAll()
    opening.write(into: &w, t: t, kind: body.kind)
    opening.taken()
    w.continueObject()
    body.encodeFields(into: &w)
    w.endObject()
  }

  /// The event as a generic log record (seq assigned by the caller).
  public func logEvent(seq: Int64) -> LogEvent {
    var w = CanonicalJSONWriter()
    w.beginObject()
    body.encodeFields(into: &w)
    w.endObject()
    guard case let .object(fields) = (try? JSONParser.parse(w.bytes)) ?? .null else {
      preconditionFailure("an event encoded to something other than an object")
    }
    return LogEvent(seq: seq, t: t, kind: body.kind, fields: fields)
  }

  /// Why a log event is not a lifesim event.
  public struct DecodingError: Error, CustomStringConvertible, Sendable {
    public let seq: Int64
    public let reason: String
    public var description: String { "event \(seq): \(reason)" }
  }

  /// Reads a lifesim event back from a log read by a `LogEventStream` (folding a log).
  public init(_ e: InPlaceEvent) throws(DecodingError) {
    // Calls the generic initialiser from within this module, which specialises it.
    try self.init(fields: e)
  }

  /// Reads a lifesim event back from a log record (parsed, or read in place).
  public init<Fields: EventFields>(_ e: Fields) throws(DecodingError) { try self.init(fields: e) }

  private init<Fields: EventFields>(fields e: Fields) throws(DecodingError) {
    let r = FieldReader(fields: e)
    let name = try r.str("name")
    let body: EventBody
    switch e.kind {
    case .input: body = .inputPerformed(try Self.input(name, r), at: r.optionalString("at"))
    case .transition: body = try Self.transition(name, r)
    case .system: body = try Self.system(name, r)
    case .callback:
      guard let cb = Callback.decoded(name) else { throw r.fail("unknown callback \"\(name)\"") }
      let arguments = CallbackArguments(url: r.optionalString("url"), completion: r.fields.int("completion").map { Int($0) },
                                        animated: r.fields.bool("animated"), payload: r.fields["payload"],
                                        scene: r.optionalString("scene"))
      body = .callbackDelivered(cb, target: try r.str("target"), handled: try r.bool("handled"), depth: try r.depth(),
                       arguments: arguments)
    case .return:
      body = .returned(name: name, target: try r.str("target"), usedUs: try r.micros("used_us"), depth: try r.depth(),
                       value: r.fields["value"])
    case .call: body = .appCalled(try AppCall(name: name, r), at: r.optionalString("at"))
    case .notification:
      body = .notificationPosted(name: name, handled: try r.bool("handled"), depth: try r.depth())
    case .crash:
      body = .crashed(name: name, target: try r.str("target"), message: try r.str("description"),
                    traceback: try r.str("traceback"))
    case .expect:
      body = .expectationChecked(name: name, passed: try r.bool("passed"), message: try r.str("message"), at: r.optionalString("at"))
    case .note:
      body = .noted(name: name, message: try r.str("message"), code: r.optionalString("code"))
    }
    self.init(t: e.t, body)
  }

  /// An input, read as the verb table declares its verb: each argument under its key.
  private static func input<Fields: EventFields>(_ name: String, _ r: FieldReader<Fields>) throws(DecodingError) -> Input {
    guard let spec = VerbSpec.named(name) else { throw r.fail("unknown input \"\(name)\"") }
    var arguments = VerbArguments()
    for argument in spec.arguments {
      switch argument {
      case let .string(key, _, _): arguments.values[key] = .text(try r.str(key))
      case let .choice(key, words, _):
        let word = try r.str(key)
        guard words.contains(word) else { throw r.fail("bad \"\(key)\"") }
        arguments.values[key] = .text(word)
      case let .tab(key, _), let .seconds(key), let .scene(key, _): arguments.values[key] = .number(try r.int(key))
      case let .optionalChoice(key, words, _):
        if let word = r.optionalString(key) {
          guard words.contains(word) else { throw r.fail("bad \"\(key)\"") }
          arguments.values[key] = .text(word)
        }
      case let .boolean(key): arguments.values[key] = .flag(try r.bool(key))
      case let .options(options):
        for option in options {
          switch option.kind {
          case .string: arguments.values[option.key] = r.optionalString(option.key).map(VerbValue.text)
          case let .choice(words): arguments.values[option.key] = r.optionalString(option.key).flatMap { words.contains($0) ? VerbValue.text($0) : nil }
          case .flag: arguments.values[option.key] = r.fields[option.key]?.boolValue.map(VerbValue.flag)
          case .scene: arguments.values[option.key] = r.fields.int(option.key).map(VerbValue.number)
          }
        }
      case let .action(key, argumentsKey):
        arguments.values[key] = .text(try r.str(key))
        guard let list = r.fields[argumentsKey]?.arrayValue, list.allSatisfy(UserAction.isArgument) else {
          throw r.fail("bad \"\(argumentsKey)\"")
        }
        arguments.values[argumentsKey] = .list(list)
      }
    }
    guard let input = spec.make(arguments) else { throw r.fail("bad input \"\(name)\"") }
    return input
  }

  /// A transition: app state, scene, view controllers, protected data, restoration.
  private static func transition<Fields: EventFields>(_ name: String, _ r: FieldReader<Fields>) throws(DecodingError) -> EventBody {
    switch name {
    case "applicationState": return .applicationStateChanged(from: try r.raw("from"), to: try r.raw("to"))
    case "activationState":
      return .sceneActivationChanged(scene: try r.str("target"), from: try r.raw("from"), to: try r.raw("to"))
    case "sceneConnected": return .sceneConnected(scene: try r.str("target"), session: try r.sessionNumber())
    case "sceneDisconnected": return .sceneDisconnected(scene: try r.str("target"))
    case "sceneSession": return .sceneSessionChanged(created: try r.str("to") == "created", session: try r.sessionNumber())
    case "rootViewController":
      guard let targets = r.fields["targets"]?.arrayValue?.compactMap(\.stringValue) else { throw r.fail("missing \"targets\"") }
      return .rootBuilt(container: try r.raw("container"), navigation: try r.bool("navigation"), controllers: targets,
                        scene: r.optionalString("scene"))
    case "push": return .pushed(try r.str("target"), scene: r.optionalString("scene"))
    case "pop": return .popped(try r.str("target"), scene: r.optionalString("scene"))
    case "present":
      return .presented(try r.str("target"), style: try r.raw("style"), navigation: r.fields.bool("navigation") ?? false,
                        scene: r.optionalString("scene"))
    case "dismiss": return .dismissed(try r.str("target"), scene: r.optionalString("scene"))
    case "selectTab": return .tabSelected(index: Int(try r.int("index")), controller: try r.str("target"),
                          scene: r.optionalString("scene"))
    case "protectedDataAvailable": return .protectedDataChanged(available: try r.bool("to"))
    case _ where RestorationChange.names.contains(name):
      guard let change = RestorationChange(name: name, fields: r.fields, session: try r.sessionNumber()) else {
        throw r.fail("bad \"\(name)\"")
      }
      return .restorationChanged(change)
    default: throw r.fail("unknown transition \"\(name)\"")
    }
  }

  /// A system event: the process launched, suspended, resumed or ended.
  private static func system<Fields: EventFields>(_ name: String, _ r: FieldReader<Fields>) throws(DecodingError) -> EventBody {
    switch name {
    case "launchProcess": return .processStarted(mode: try r.raw("mode"), state: try r.raw("state"))
    case "continueLaunch": return .launchContinued(state: try r.raw("state"))
    case "suspend": return .suspended
    case "resume": return .resumed
    case "terminate":
      return .terminated(Termination(reason: try r.raw("reason"), code: r.optionalString("code"), description: try r.str("description")))
    default: throw r.fail("unknown system event \"\(name)\"")
    }
  }
}

extension Callback {
  /// The callbacks by signature, in a table found by `QuickHash` (open addressing): decoding
  /// reads a signature for every callback event, and hashing one with `Hasher` costs more than
  /// the rest of its decoding.
  private static let bySignatureHash: [Callback?] = {
    var slots = [Callback?](repeating: nil, count: signatureSlots)
    for c in Callback.allCases {
      var i = slot(c.signature)
      while slots[i] != nil { i = (i + 1) & (signatureSlots - 1) }
      slots[i] = c
    }
    return slots
  }()
  private static let signatureSlots = 512

  private static func slot(_ signature: String) -> Int {
    var signature = signature
    return signature.withUTF8 { Int(truncatingIfNeeded: QuickHash.of(UnsafeRawBufferPointer($0)) >> 32) & (signatureSlots - 1) }
  }

  /// The callback whose full signature is `signature` (as `init(signature:)`).
  static func decoded(_ signature: String) -> Callback? {
    var i = slot(signature)
    while let c = bySignatureHash[i] {
      if c.signature == signature { return c }
      i = (i + 1) & (signatureSlots - 1)
    }
    return nil
  }
}
