import EventStore

// The JSON form of every event (docs/log-format.md lists them). Encoding
// writes straight into the log's canonical writer; decoding reads a LogEvent
// back, so replay needs nothing but the log.

extension EventBody {
  /// Writes this event's members after `seq`, `t` and `kind`.
  public func encodeFields(into w: inout CanonicalJSONWriter) {
    switch self {
    case let .inputPerformed(input, at):
      // As the verb table declares the verb: each argument under its key, in the row's order.
      let spec = input.spec, arguments = input.arguments
      w.field("name", spec.name)
      for (key, value) in spec.recorded(arguments) {
        w.key(dynamic: key)
        switch value {
        case let .text(s): w.string(s)
        case let .number(n): w.int(n)
        case let .flag(b): w.bool(b)
        case let .list(l): w.value(.array(l))
        }
      }
      if let at { w.field("at", at) }
    case let .applicationStateChanged(from, to):
      w.field("name", "applicationState"); w.field("from", from.rawValue); w.field("to", to.rawValue)
    case let .sceneActivationChanged(scene, from, to):
      w.field("name", "activationState"); w.field("target", scene)
      w.field("from", from.rawValue); w.field("to", to.rawValue)
    case let .sceneConnected(scene): w.field("name", "sceneConnected"); w.field("target", scene)
    case let .sceneDisconnected(scene): w.field("name", "sceneDisconnected"); w.field("target", scene)
    case let .sceneSessionChanged(created): w.field("name", "sceneSession"); w.field("to", created ? "created" : "discarded")
    case let .rootBuilt(container, navigation, controllers):
      w.field("name", "rootViewController"); w.field("container", container.rawValue)
      w.field("navigation", navigation)
      w.key("targets"); w.beginArray(); for c in controllers { w.string(c) }; w.endArray()
    case let .pushed(c): w.field("name", "push"); w.field("target", c)
    case let .popped(c): w.field("name", "pop"); w.field("target", c)
    case let .presented(c, style, nav):
      w.field("name", "present"); w.field("target", c); w.field("style", style.rawValue)
      if nav { w.field("navigation", true) }
    case let .dismissed(c): w.field("name", "dismiss"); w.field("target", c)
    case let .tabSelected(index, c): w.field("name", "selectTab"); w.field("target", c); w.field("index", index)
    case let .protectedDataChanged(available): w.field("name", "protectedDataAvailable"); w.field("to", available)
    case let .restorationChanged(change): change.encodeFields(into: &w)
    case let .processStarted(mode, state):
      w.field("name", "launchProcess"); w.field("mode", mode.rawValue); w.field("state", state.rawValue)
    case let .launchContinued(state): w.field("name", "continueLaunch"); w.field("state", state.rawValue)
    case .suspended: w.field("name", "suspend")
    case .resumed: w.field("name", "resume")
    case let .terminated(term):
      w.field("name", "terminate"); w.field("reason", term.reason.rawValue)
      if let code = term.code { w.field("code", code) }
      w.field("description", term.description)
    case let .callbackDelivered(cb, target, handled, depth, arguments):
      w.field("name", cb.signature); w.field("target", target); w.field("handled", handled)
      w.field("depth", depth)
      if let url = arguments.url { w.field("url", url) }
      if let completion = arguments.completion { w.field("completion", completion) }
      if let animated = arguments.animated { w.field("animated", animated) }
      if let payload = arguments.payload { w.field("payload", payload) }
    case let .returned(name, target, used, depth, value):
      w.field("name", name); w.field("target", target); w.field("used_us", used); w.field("depth", depth)
      if let value { w.field("value", value) }
    case let .appCalled(call, at):
      w.field("name", call.name)
      switch call {
      case let .work(us): w.field("duration_us", us)
      case let .beginBackgroundTask(name, task): w.field("label", name); w.field("task", task)
      case let .endBackgroundTask(task): w.field("task", task)
      case let .store(key, value, protection):
        w.field("key", key); w.field("value", value ?? .null)
        if protection != .untilFirstUnlock { w.field("protection", protection.rawValue) }
      case let .holdLock(name, shared): w.field("lock", name); w.field("shared", shared)
      case let .releaseLock(name): w.field("lock", name)
      case let .log(message): w.field("message", message)
      case let .observe(n): w.field("notification", n)
      case let .after(us, id): w.field("delay_us", us); w.field("id", id)
      case let .completion(id): w.field("id", id)
      case let .push(c): w.field("class", c)
      case let .present(c, style, nav):
        w.field("class", c); w.field("style", style.rawValue)
        if nav { w.field("navigation", true) }
      case .pop, .dismiss, .setNotificationDelegate, .extendStateRestoration, .completeStateRestoration: break
      case let .restorationHandler(controllers):
        w.key("controllers"); w.beginArray(); for c in controllers { w.string(c) }; w.endArray()
      case let .registerBGTask(identifier, result):
        w.field("identifier", identifier); w.field("result", result.rawValue)
      case let .submitBGTask(request, result):
        w.field("identifier", request.identifier); w.field("task_kind", request.kind.rawValue)
        w.field("earliest_begin_us", request.earliestBeginUs)
        if request.requiresExternalPower { w.field("requires_external_power", true) }
        if request.requiresNetwork { w.field("requires_network", true) }
        request.continued?.encode(into: &w)
        w.field("result", result.rawValue)
      case let .setTaskCompleted(identifier, success): w.field("identifier", identifier); w.field("success", success)
      case let .updateProgress(identifier, done, total): AppCall.encodeProgress(identifier: identifier, done: done, total: total, into: &w)
      case let .backgroundTransfer(session, task, us):
        w.field("session", session); w.field("task", task); w.field("duration_us", us)
      }
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
    func fail(_ r: String) -> DecodingError { DecodingError(seq: e.seq, reason: r) }
    func str(_ k: String) throws(DecodingError) -> String {
      guard let v = e.string(k) else { throw fail("missing \"\(k)\"") }
      return v
    }
    func optStr(_ k: String) -> String? { e.string(k) }
    func int(_ k: String) throws(DecodingError) -> Int64 {
      guard let v = e.int(k) else { throw fail("missing \"\(k)\"") }
      return v
    }
    // A duration no run can reach (past the latest time a log holds) would overflow the fold's sums.
    func micros(_ k: String) throws(DecodingError) -> Int64 {
      let v = try int(k)
      guard (0...LogLimits.timeMaxUs).contains(v) else { throw fail("\(k) \(v) is outside its range 0…\(LogLimits.timeMaxUs)") }
      return v
    }
    func depth() throws(DecodingError) -> Int {
      let v = try int("depth")
      guard (0...Event.depthMax).contains(v) else { throw fail("depth \(v) is outside its range 0…\(Event.depthMax)") }
      return Int(v)
    }
    func bool(_ k: String) throws(DecodingError) -> Bool {
      guard let v = e.bool(k) else { throw fail("missing \"\(k)\"") }
      return v
    }
    func raw<E: RawRepresentable>(_ k: String) throws(DecodingError) -> E where E.RawValue == String {
      guard let v = E(rawValue: try str(k)) else { throw fail("bad \"\(k)\"") }
      return v
    }
    let name = try str("name")
    let body: EventBody
    switch e.kind {
    case .input:
      // Read as the verb table declares the verb: each argument is recorded under its key.
      guard let spec = VerbSpec.named(name) else { throw fail("unknown input \"\(name)\"") }
      var arguments = VerbArguments()
      for argument in spec.arguments {
        switch argument {
        case let .string(key, _, _): arguments.values[key] = .text(try str(key))
        case let .choice(key, words, _):
          let word = try str(key)
          guard words.contains(word) else { throw fail("bad \"\(key)\"") }
          arguments.values[key] = .text(word)
        case let .tab(key, _), let .seconds(key), let .scene(key, _): arguments.values[key] = .number(try int(key))
        case let .optionalChoice(key, words, _):
          if let word = optStr(key) {
            guard words.contains(word) else { throw fail("bad \"\(key)\"") }
            arguments.values[key] = .text(word)
          }
        case let .boolean(key): arguments.values[key] = .flag(try bool(key))
        case let .options(options):
          for option in options {
            switch option.kind {
            case .string: arguments.values[option.key] = optStr(option.key).map(VerbValue.text)
            case let .choice(words): arguments.values[option.key] = optStr(option.key).flatMap { words.contains($0) ? VerbValue.text($0) : nil }
            case .flag: arguments.values[option.key] = e[option.key]?.boolValue.map(VerbValue.flag)
            }
          }
        case let .action(key, argumentsKey):
          arguments.values[key] = .text(try str(key))
          guard let list = e[argumentsKey]?.arrayValue, list.allSatisfy(UserAction.isArgument) else {
            throw fail("bad \"\(argumentsKey)\"")
          }
          arguments.values[argumentsKey] = .list(list)
        }
      }
      guard let input = spec.make(arguments) else { throw fail("bad input \"\(name)\"") }
      body = .inputPerformed(input, at: optStr("at"))
    case .transition:
      switch name {
      case "applicationState": body = .applicationStateChanged(from: try raw("from"), to: try raw("to"))
      case "activationState":
        body = .sceneActivationChanged(scene: try str("target"), from: try raw("from"), to: try raw("to"))
      case "sceneConnected": body = .sceneConnected(scene: try str("target"))
      case "sceneDisconnected": body = .sceneDisconnected(scene: try str("target"))
      case "sceneSession": body = .sceneSessionChanged(created: try str("to") == "created")
      case "rootViewController":
        guard let targets = e["targets"]?.arrayValue?.compactMap(\.stringValue) else { throw fail("missing \"targets\"") }
        body = .rootBuilt(container: try raw("container"), navigation: try bool("navigation"), controllers: targets)
      case "push": body = .pushed(try str("target"))
      case "pop": body = .popped(try str("target"))
      case "present":
        body = .presented(try str("target"), style: try raw("style"), navigation: e.bool("navigation") ?? false)
      case "dismiss": body = .dismissed(try str("target"))
      case "selectTab": body = .tabSelected(index: Int(try int("index")), controller: try str("target"))
      case "protectedDataAvailable": body = .protectedDataChanged(available: try bool("to"))
      case _ where RestorationChange.names.contains(name):
        guard let change = RestorationChange(name: name, fields: e) else { throw fail("bad \"\(name)\"") }
        body = .restorationChanged(change)
      default: throw fail("unknown transition \"\(name)\"")
      }
    case .system:
      switch name {
      case "launchProcess": body = .processStarted(mode: try raw("mode"), state: try raw("state"))
      case "continueLaunch": body = .launchContinued(state: try raw("state"))
      case "suspend": body = .suspended
      case "resume": body = .resumed
      case "terminate":
        body = .terminated(Termination(reason: try raw("reason"), code: optStr("code"), description: try str("description")))
      default: throw fail("unknown system event \"\(name)\"")
      }
    case .callback:
      guard let cb = Callback.decoded(name) else { throw fail("unknown callback \"\(name)\"") }
      let arguments = CallbackArguments(url: optStr("url"), completion: e.int("completion").map { Int($0) },
                                        animated: e.bool("animated"), payload: e["payload"])
      body = .callbackDelivered(cb, target: try str("target"), handled: try bool("handled"), depth: try depth(),
                       arguments: arguments)
    case .return:
      body = .returned(name: name, target: try str("target"), usedUs: try micros("used_us"), depth: try depth(),
                       value: e["value"])
    case .call:
      let call: AppCall
      switch name {
      case "work": call = .work(us: try micros("duration_us"))
      case "beginBackgroundTask": call = .beginBackgroundTask(name: try str("label"), task: Int(try int("task")))
      case "endBackgroundTask": call = .endBackgroundTask(task: Int(try int("task")))
      case "store":
        let v = e["value"] ?? .null
        let protection: DataProtection = e["protection"] == nil ? .untilFirstUnlock : try raw("protection")
        call = .store(key: try str("key"), value: v == .null ? nil : v, protection: protection)
      case "hold_lock": call = .holdLock(name: try str("lock"), shared: try bool("shared"))
      case "release_lock": call = .releaseLock(name: try str("lock"))
      case "log": call = .log(try str("message"))
      case "observe": call = .observe(try str("notification"))
      case "after": call = .after(us: try micros("delay_us"), id: Int(try int("id")))
      case "completion": call = .completion(id: Int(try int("id")))
      case "push": call = .push(try str("class"))
      case "pop": call = .pop
      case "present":
        call = .present(try str("class"), style: try raw("style"), navigation: e.bool("navigation") ?? false)
      case "dismiss": call = .dismiss
      case "UNUserNotificationCenter.setDelegate": call = .setNotificationDelegate
      case "restorationHandler":
        guard let controllers = e["controllers"]?.arrayValue?.compactMap(\.stringValue) else { throw fail("missing \"controllers\"") }
        call = .restorationHandler(controllers: controllers)
      case "BGTaskScheduler.register":
        call = .registerBGTask(identifier: try str("identifier"), result: try raw("result"))
      case "BGTaskScheduler.submit":
        let kind: BGTaskKind = try raw("task_kind")
        let request = BGTaskRequest(identifier: try str("identifier"), kind: kind,
                                    earliestBeginUs: try micros("earliest_begin_us"),
                                    requiresExternalPower: e.bool("requires_external_power") ?? false,
                                    requiresNetwork: e.bool("requires_network") ?? false,
                                    continued: try ContinuedRequest.decoded(e, kind: kind))
        call = .submitBGTask(request, result: try raw("result"))
      case "setTaskCompleted": call = .setTaskCompleted(identifier: try str("identifier"), success: try bool("success"))
      case "updateProgress": call = try AppCall.decodedProgress(e)
      case "background_transfer":
        call = .backgroundTransfer(session: try str("session"), task: Int(try int("task")), us: try micros("duration_us"))
      case "extendStateRestoration": call = .extendStateRestoration
      case "completeStateRestoration": call = .completeStateRestoration
      default: throw fail("unknown app call \"\(name)\"")
      }
      body = .appCalled(call, at: optStr("at"))
    case .notification:
      body = .notificationPosted(name: name, handled: try bool("handled"), depth: try depth())
    case .crash:
      body = .crashed(name: name, target: try str("target"), message: try str("description"),
                    traceback: try str("traceback"))
    case .expect:
      body = .expectationChecked(name: name, passed: try bool("passed"), message: try str("message"), at: optStr("at"))
    case .note:
      body = .noted(name: name, message: try str("message"), code: optStr("code"))
    }
    self.init(t: e.t, body)
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
