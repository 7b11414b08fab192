import EventStore
import JSON
import Lifecycle

extension AppCall {
  /// Writes this call's members after `seq`, `t` and `kind`; its `at` is the event's.
  func encodeFields(into w: inout CanonicalJSONWriter) {
    w.field("name", name)
    switch self {
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
    case let .requestSceneActivation(session, activity):
      if let session { w.field("session", session) }
      if let activity { w.field("activity", activity) }
    case let .requestSceneDestruction(session): w.field("session", session)
    case let .choose(site, value, forced):
      w.field("site", site); w.field("value", value)
      if forced { w.field("forced", true) }
    case let .delegateWindow(present, site):
      w.field("present", present)
      if let site { w.field("site", site) }
    case let .frameWindow(shown, site):
      w.field("shown", shown)
      if let site { w.field("site", site) }
    }
  }

  /// The app call an event named `name` records.
  init<Fields: EventFields>(name: String, _ r: FieldReader<Fields>) throws(Event.DecodingError) {
    switch name {
    case "work": self = .work(us: try r.micros("duration_us"))
    case "beginBackgroundTask": self = .beginBackgroundTask(name: try r.str("label"), task: Int(try r.int("task")))
    case "endBackgroundTask": self = .endBackgroundTask(task: Int(try r.int("task")))
    case "store":
      let v = r.fields["value"] ?? .null
      let protection: DataProtection = r.fields["protection"] == nil ? .untilFirstUnlock : try r.raw("protection")
      self = .store(key: try r.str("key"), value: v == .null ? nil : v, protection: protection)
    case "hold_lock": self = .holdLock(name: try r.str("lock"), shared: try r.bool("shared"))
    case "release_lock": self = .releaseLock(name: try r.str("lock"))
    case "log": self = .log(try r.str("message"))
    case "observe": self = .observe(try r.str("notification"))
    case "after": self = .after(us: try r.micros("delay_us"), id: Int(try r.int("id")))
    case "completion": self = .completion(id: Int(try r.int("id")))
    case "push": self = .push(try r.str("class"))
    case "UIApplication.requestSceneSessionActivation":
      self = .requestSceneActivation(session: r.fields.int("session").map { Int(clamping: $0) }, activity: r.optionalString("activity"))
    case "UIApplication.requestSceneSessionDestruction": self = .requestSceneDestruction(session: Int(clamping: try r.int("session")))
    case "pop": self = .pop
    case "present":
      self = .present(try r.str("class"), style: try r.raw("style"), navigation: r.fields.bool("navigation") ?? false)
    case "dismiss": self = .dismiss
    case "UNUserNotificationCenter.setDelegate": self = .setNotificationDelegate
    case "restorationHandler":
      guard let controllers = r.fields["controllers"]?.arrayValue?.compactMap(\.stringValue) else { throw r.fail("missing \"controllers\"") }
      self = .restorationHandler(controllers: controllers)
    case "BGTaskScheduler.register":
      self = .registerBGTask(identifier: try r.str("identifier"), result: try r.raw("result"))
    case "BGTaskScheduler.submit":
      let kind: BGTaskKind = try r.raw("task_kind")
      let request = BGTaskRequest(identifier: try r.str("identifier"), kind: kind,
                                  earliestBeginUs: try r.micros("earliest_begin_us"),
                                  requiresExternalPower: r.fields.bool("requires_external_power") ?? false,
                                  requiresNetwork: r.fields.bool("requires_network") ?? false,
                                  continued: try ContinuedRequest.decoded(r.fields, kind: kind))
      self = .submitBGTask(request, result: try r.raw("result"))
    case "setTaskCompleted": self = .setTaskCompleted(identifier: try r.str("identifier"), success: try r.bool("success"))
    case "updateProgress": self = try AppCall.decodedProgress(r.fields)
    case "background_transfer":
      self = .backgroundTransfer(session: try r.str("session"), task: Int(try r.int("task")), us: try r.micros("duration_us"))
    case "extendStateRestoration": self = .extendStateRestoration
    case "completeStateRestoration": self = .completeStateRestoration
    case "choose": self = .choose(site: try r.str("site"), value: try r.bool("value"), forced: r.fields.bool("forced") ?? false)
    case "delegateWindow": self = .delegateWindow(present: try r.bool("present"), site: r.fields.string("site"))
    case "frameWindow": self = .frameWindow(shown: try r.bool("shown"), site: r.fields.string("site"))
    default: throw r.fail("unknown app call \"\(name)\"")
    }
  }
}
