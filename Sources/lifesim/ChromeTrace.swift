import EventStore
import Lifecycle

/// Streams a run as Chrome Trace Event JSON (Perfetto opens it): one process,
/// one track per layer, callbacks as complete events with virtual durations.
struct ChromeTraceExporter {
  let sink: OutputSink
  private let profile: Profile?
  private var first = true
  private var tracks: [String: Int] = [:]
  private var trackOrder: [String] = []
  /// Callbacks waiting for their `return`, innermost last.
  private var open: [(name: String, target: String, t: Int64)] = []
  private var lastT: Int64 = 0
  private var appState = "not_running"
  private var appStateSince: Int64 = 0
  private var tasks: [Int: (name: String, since: Int64)] = [:]
  /// When the app began running in the background (nil: it is not).
  private var backgroundSince: Int64?
  /// The time of the last counter sample.
  private var lastCounterT: Int64 = -1

  init(profile: Profile?, sink: OutputSink) {
    self.profile = profile
    self.sink = sink
    sink.write("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[")
    emit(.object([("ph", .string("M")), ("pid", .int(1)), ("name", .string("process_name")),
                  ("args", .object([("name", .string("lifesim run"))]))]))
    for name in ["System", "App state", "AppDelegate", "SceneDelegate", "Background tasks"] { _ = track(name) }
  }

  private mutating func track(_ name: String) -> Int {
    if let t = tracks[name] { return t }
    let id = trackOrder.count + 1
    tracks[name] = id
    trackOrder.append(name)
    emit(.object([("ph", .string("M")), ("pid", .int(1)), ("tid", .int(Int64(id))), ("name", .string("thread_name")),
                  ("args", .object([("name", .string(name))]))]))
    emit(.object([("ph", .string("M")), ("pid", .int(1)), ("tid", .int(Int64(id))), ("name", .string("thread_sort_index")),
                  ("args", .object([("sort_index", .int(Int64(id)))]))]))
    return id
  }

  private mutating func emit(_ value: JSONValue) {
    sink.write((first ? "" : ",") + value.canonicalText)
    first = false
  }

  private mutating func instant(_ track: String, _ name: String, _ t: Int64, args: [(String, JSONValue)] = []) {
    let tid = self.track(track)
    emit(.object([("ph", .string("i")), ("s", .string("t")), ("pid", .int(1)), ("tid", .int(Int64(tid))),
                  ("ts", .int(t)), ("name", .string(name)), ("args", .object(args))]))
  }

  private mutating func span(_ track: String, _ name: String, from: Int64, to: Int64, args: [(String, JSONValue)] = []) {
    let tid = self.track(track)
    emit(.object([("ph", .string("X")), ("pid", .int(1)), ("tid", .int(Int64(tid))), ("ts", .int(from)),
                  ("dur", .int(max(0, to - from))), ("name", .string(name)), ("args", .object(args))]))
  }

  private func trackName(for target: String) -> String {
    if target == "AppDelegate" || target == "SceneDelegate" { return target }
    if target.hasPrefix("BackgroundTask#") || target.hasPrefix("after#") || target == "NotificationCenter" { return "Background tasks" }
    return target
  }

  private mutating func setAppState(_ s: String, at t: Int64) {
    if s != appState, t > appStateSince || appState != "not_running" {
      span("App state", appState, from: appStateSince, to: t)
    }
    appState = s
    appStateSince = t
  }

  /// One sample of `backgroundTimeRemaining`: what the app would read at `t` while running in the
  /// background, the full allowance otherwise (where iOS reports a "suitably large" value).
  private mutating func counter(at t: Int64) {
    guard let profile else { return }
    let remaining: Int64 = backgroundSince.map { max(0, $0 + profile.backgroundTaskAllowance_us - t) } ?? profile.backgroundTaskAllowance_us
    emit(.object([("ph", .string("C")), ("pid", .int(1)), ("ts", .int(t)), ("name", .string("backgroundTimeRemaining (s)")),
                  ("args", .object([("seconds", .double(Double(remaining) / 1e6))]))]))
    lastCounterT = t
  }

  /// Between events the counter is drawn as a step: while the app runs in the background it is
  /// sampled every second of its allowance, at the point where expiration handlers are called
  /// and where the allowance runs out (0), for the times after the last sample and before `t`.
  private mutating func countdown(to t: Int64) {
    guard let profile, let since = backgroundSince else { return }
    let end = since + profile.backgroundTaskAllowance_us
    let second = VirtualTime.microsecondsPerSecond
    var points = [end - profile.expirationLead_us, end]
    var k = max(1, (lastCounterT - since) / second + 1)
    while since + k * second < min(t, end) {
      points.append(since + k * second)
      k += 1
    }
    for p in Set(points).sorted() where p > lastCounterT && p < t && p > since && p <= end { counter(at: p) }
  }

  mutating func add(_ event: Event) {
    let t = event.t
    countdown(to: t)
    lastT = t
    switch event.body {
    case let .input(input, _):
      instant("System", input.verb, t)
    case let .applicationState(_, to):
      setAppState(to.rawValue, at: t)
      backgroundSince = to == .background ? t : nil
      counter(at: t)
    case let .sceneActivation(scene, _, to):
      instant("SceneDelegate", "\(scene) → \(to.rawValue)", t)
    case let .processStarted(mode, state):
      instant("System", "process started (\(mode.rawValue))", t)
      setAppState(mode == .prewarm ? "prewarmed" : state.rawValue, at: t)
      backgroundSince = state == .background ? t : nil
    case .suspended:
      setAppState("suspended", at: t)
      instant("System", "suspended", t)
      counter(at: t)
      backgroundSince = nil  // a suspended app reads nothing: the counter holds
    case .resumed:
      setAppState("background", at: t)
      backgroundSince = t
      instant("System", "resumed", t)
    case let .terminated(term):
      counter(at: t)
      backgroundSince = nil
      closeAll(at: t)
      instant("System", "terminated: \(term.reason.rawValue)", t,
              args: [("code", .string(term.code ?? "")), ("description", .string(term.description))])
      setAppState("not_running", at: t)
    case let .crash(name, target, message, _):
      counter(at: t)
      backgroundSince = nil
      closeAll(at: t)
      instant("System", "crash in \(target).\(name)", t, args: [("message", .string(message))])
      setAppState("not_running", at: t)
    case let .callback(cb, target, handled, _, _, _):
      if handled { open.append((cb.signature, target, t)) } else { span(trackName(for: target), cb.signature, from: t, to: t, args: [("handled", .bool(false))]) }
    case let .returned(name, target, _, _):
      if let i = open.lastIndex(where: { $0.name == name && $0.target == target }) {
        let o = open.remove(at: i)
        span(trackName(for: target), name, from: o.t, to: t, args: [("handled", .bool(true))])
      }
    case let .call(call, _):
      switch call {
      case let .beginBackgroundTask(name, task): tasks[task] = (name, t); counter(at: t)
      case let .endBackgroundTask(task):
        if let b = tasks.removeValue(forKey: task) { span("Background tasks", "task \(task) \"\(b.name)\"", from: b.since, to: t) }
      case .work, .store, .log, .observe, .after, .completion, .push, .pop, .present, .dismiss: break
      }
    case let .expect(name, passed, message, _):
      instant("System", "\(passed ? "✔" : "✘") \(name)", t, args: [("message", .string(message))])
    case let .note(name, message):
      instant("System", name, t, args: [("message", .string(message))])
    case let .pushed(c), let .presented(c, _, _):
      _ = track(c)
    case .sceneConnected, .sceneDisconnected, .sceneSession, .rootBuilt, .popped, .dismissed, .tabSelected,
         .protectedData, .launchContinued, .notification:
      break
    }
  }

  /// A kill ends every open callback and task at the kill time.
  private mutating func closeAll(at t: Int64) {
    for o in open.reversed() { span(trackName(for: o.target), o.name, from: o.t, to: t, args: [("killed", .bool(true))]) }
    open.removeAll()
    for task in tasks.keys.sorted() {
      let b = tasks[task]!
      span("Background tasks", "task \(task) \"\(b.name)\" (killed)", from: b.since, to: t)
    }
    tasks.removeAll()
  }

  mutating func finish() {
    countdown(to: lastT + 1)
    closeAll(at: lastT)
    span("App state", appState, from: appStateSince, to: lastT)
    sink.write("]}")
  }
}
