import EventStore
import Lifecycle

/// The time axis of a chrome trace.
enum TraceClock: String, CaseIterable {
  /// Every event is its own tick (`ts` = `seq` µs), so order and nesting show at any zoom; the
  /// virtual time is in each event's args (`t_us`).
  case sequence
  /// `ts` is the virtual time: callbacks last their virtual durations, and most last 0.
  case virtual
}

/// Streams a run as Chrome Trace Event JSON (Perfetto opens it): one process named after the
/// scenario, with a pid derived from the run; a track per layer; callbacks and background tasks
/// as complete events; inputs, app calls, notifications, kills and expectations as instants on
/// their target's track. Every event carries `seq` and `t_us` in its args. The app state is
/// folded with `LifecycleState.evolve`, as a run folds it.
struct ChromeTraceExporter {
  let sink: OutputSink
  let clock: TraceClock
  private let profile: Profile?
  private let pid: Int64
  private var first = true
  private var tracks: [String: Int] = [:]
  private var queue = TraceTrackQueue()
  private var state = LifecycleState()
  /// A callback waiting for its `return`.
  private struct OpenCallback {
    let name: String
    let target: String
    let track: String
    let ts: Int64
    let args: [(String, JSONValue)]
  }
  /// Callbacks waiting for their `return`, innermost last.
  private var open: [OpenCallback] = []
  /// Background tasks begun and not ended: name, start and the args of their `beginBackgroundTask`.
  private var tasks: [Int: (name: String, ts: Int64, args: [(String, JSONValue)])] = [:]
  /// The state shown on the "App state" track, and the event that started it (none: the
  /// process has not started yet, which the track leaves blank).
  private var appState: (label: String, ts: Int64, args: [(String, JSONValue)]) = ("not_running", 0, [])
  private var lastTs: Int64 = 0
  private var lastT: Int64 = 0
  /// The virtual time of the last counter sample (virtual clock).
  private var lastCounterT: Int64 = -1
  /// The value of the last counter sample (sequence clock).
  private var lastCounterValue: Int64?

  init(header: LogHeader, clock: TraceClock, sink: OutputSink) {
    let profile = try? Profile(json: header.profile)
    let run = RunIdentity(header: header)
    self.profile = profile
    self.sink = sink
    self.clock = clock
    pid = run.pid
    sink.write("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[")
    let name = run.scenario + (profile.map { " (iOS \($0.ios), seed \(header.seed))" } ?? " (seed \(header.seed))")
    emit(.object([("ph", .string("M")), ("pid", .int(pid)), ("name", .string("process_name")),
                  ("args", .object([("name", .string(name))]))]))
    emit(.object([("ph", .string("M")), ("pid", .int(pid)), ("name", .string("process_labels")),
                  ("args", .object([("labels", .string("run \(run.id), \(clock.rawValue) clock"))]))]))
    for name in ["System", "App state", "AppDelegate", "SceneDelegate", "Background tasks"] { _ = track(name) }
  }

  private mutating func track(_ name: String) -> Int {
    if let t = tracks[name] { return t }
    let id = tracks.count + 1
    tracks[name] = id
    emit(.object([("ph", .string("M")), ("pid", .int(pid)), ("tid", .int(Int64(id))), ("name", .string("thread_name")),
                  ("args", .object([("name", .string(name))]))]))
    emit(.object([("ph", .string("M")), ("pid", .int(pid)), ("tid", .int(Int64(id))), ("name", .string("thread_sort_index")),
                  ("args", .object([("sort_index", .int(Int64(id)))]))]))
    return id
  }

  private mutating func emit(_ value: JSONValue) { write(value.canonicalText) }

  private mutating func write(_ text: String) {
    sink.write((first ? "" : ",") + text)
    first = false
  }

  private mutating func put(_ track: String, ts: Int64, dur: Int64, _ value: JSONValue) {
    let tid = self.track(track)
    for text in queue.put(tid, ts: ts, dur: dur, value.canonicalText) { write(text) }
  }

  private mutating func instant(_ track: String, _ name: String, _ ts: Int64, args: [(String, JSONValue)]) {
    let tid = Int64(self.track(track))
    put(track, ts: ts, dur: 0, .object([("ph", .string("i")), ("s", .string("t")), ("pid", .int(pid)), ("tid", .int(tid)),
                                        ("ts", .int(ts)), ("name", .string(name)), ("args", .object(args))]))
  }

  /// Marks the start of a slice on `track`, so nothing after it there is written before it.
  private mutating func begin(_ track: String, at ts: Int64) { queue.open(self.track(track), at: ts) }

  /// A complete slice begun with `begin` (or lasting one tick or none, without it).
  private mutating func span(_ track: String, _ name: String, from: Int64, to: Int64, args: [(String, JSONValue)], begun: Bool = true) {
    let tid = self.track(track)
    if begun { queue.close(tid, startedAt: from) }
    let dur = max(0, to - from)
    put(track, ts: from, dur: dur, .object([("ph", .string("X")), ("pid", .int(pid)), ("tid", .int(Int64(tid))), ("ts", .int(from)),
                                            ("dur", .int(dur)), ("name", .string(name)), ("args", .object(args))]))
  }

  private func trackName(for target: String) -> String {
    // Not on the task's own track: an expiration handler may end its task, and the two would overlap.
    if target.hasPrefix("BackgroundTask#") || target.hasPrefix("after#") || target == "NotificationCenter" { return "Background tasks" }
    return target
  }

  /// Where an app call shows: on the track of the callback that made it.
  private var callerTrack: String { open.last?.track ?? "System" }

  /// What `backgroundTimeRemaining` reads at `t`: the rest of the allowance while the app runs
  /// in the background, the full allowance while it runs in the foreground, nil (the counter
  /// holds) while it does not run.
  private func remaining(at t: Int64) -> Int64? {
    guard let profile, state.process == .running else { return nil }
    guard state.applicationState == .background, let since = state.backgroundSince else { return profile.backgroundTaskAllowance_us }
    return max(0, since + profile.backgroundTaskAllowance_us - t)
  }

  private mutating func counter(_ value: Int64, ts: Int64) {
    emit(.object([("ph", .string("C")), ("pid", .int(pid)), ("ts", .int(ts)), ("name", .string("backgroundTimeRemaining (s)")),
                  ("args", .object([("seconds", .double(Double(value) / 1e6))]))]))
    lastCounterValue = value
  }

  /// Virtual clock: between events the counter is drawn as a step, sampled every second of the
  /// allowance while the app runs in the background, where expiration handlers are called and
  /// where the allowance runs out (0), for the times after the last sample and before `t`.
  private mutating func countdown(to t: Int64) {
    guard let profile, state.process == .running, state.applicationState == .background, let since = state.backgroundSince else { return }
    let end = since + profile.backgroundTaskAllowance_us
    let second = VirtualTime.microsecondsPerSecond
    var points = [end - profile.expirationLead_us, end]
    var k = max(1, (lastCounterT - since) / second + 1)
    while since + k * second < min(t, end) {
      points.append(since + k * second)
      k += 1
    }
    for p in Set(points).sorted() where p > lastCounterT && p < t && p > since && p <= end {
      if let value = remaining(at: p) { counter(value, ts: p); lastCounterT = p }
    }
  }

  mutating func add(seq: Int64, _ event: Event) {
    let t = event.t
    let ts = clock == .sequence ? seq : t
    if clock == .virtual { countdown(to: t) }
    let before = (state.process, state.applicationState, state.backgroundSince)
    if event.body.endsProcessRun, let value = remaining(at: t), clock == .virtual || value != lastCounterValue {
      counter(value, ts: ts)
      lastCounterT = t
    }
    state.evolve(event)
    record(event.body, seq: seq, t: t, ts: ts)
    showAppState(at: ts, args: [("seq", .int(seq)), ("t_us", .int(t))])
    let after = (state.process, state.applicationState, state.backgroundSince)
    if let value = remaining(at: t) {
      let changed = before.0 != after.0 || before.1 != after.1 || before.2 != after.2
      if clock == .virtual ? changed : value != lastCounterValue {
        counter(value, ts: ts)
        lastCounterT = t
      }
    }
    lastTs = ts
    lastT = t
  }

  private mutating func record(_ body: EventBody, seq: Int64, t: Int64, ts: Int64) {
    var args: [(String, JSONValue)] = [("seq", .int(seq)), ("t_us", .int(t))]
    switch body {
    case let .inputPerformed(input, at):
      instant("System", input.verb, ts, args: args + [("at", at.map(JSONValue.string) ?? .null)])
    case let .sceneActivationChanged(scene, from, to):
      instant("SceneDelegate", "\(scene) → \(to.rawValue)", ts, args: args + [("from", .string(from.rawValue))])
    case let .processStarted(mode, _):
      instant("System", "process started (\(mode.rawValue))", ts, args: args)
    case .launchContinued: instant("System", "launch continued", ts, args: args)
    case .suspended: instant("System", "suspended", ts, args: args)
    case .resumed: instant("System", "resumed", ts, args: args)
    case let .terminated(term):
      closeAll(at: ts)
      instant("System", "terminated: \(term.reason.rawValue)", ts,
              args: args + [("code", .string(term.code ?? "")), ("description", .string(term.description))])
    case let .crashed(name, target, message, _):
      closeAll(at: ts)
      instant("System", "crash in \(target).\(name)", ts, args: args + [("message", .string(message))])
    case let .callbackDelivered(cb, target, handled, depth, arguments):
      args += [("target", .string(target)), ("depth", .int(Int64(depth))), ("handled", .bool(handled))]
      if let url = arguments.url { args.append(("url", .string(url))) }
      if let animated = arguments.animated { args.append(("animated", .bool(animated))) }
      if let payload = arguments.payload { args.append(("payload", payload)) }
      let track = trackName(for: target)
      if handled {
        begin(track, at: ts)
        open.append(OpenCallback(name: cb.signature, target: target, track: track, ts: ts, args: args))
      } else {
        span(track, cb.signature, from: ts, to: ts + (clock == .sequence ? 1 : 0), args: args, begun: false)
      }
    case let .returned(name, target, used, _, value):
      if let i = open.lastIndex(where: { $0.name == name && $0.target == target }) {
        let o = open.remove(at: i)
        let returned: [(String, JSONValue)] = value.map { [("value", $0)] } ?? []
        span(o.track, name, from: o.ts, to: ts, args: o.args + [("return_seq", .int(seq)), ("used_us", .int(used))] + returned)
      }
    case let .appCalled(call, at):
      args += [("call", .string(TraceFormatter.describe(call))), ("at", at.map(JSONValue.string) ?? .null)]
      instant(callerTrack, call.name, ts, args: args)
      task(call, seq: seq, args: args, ts: ts)
    case let .notificationPosted(name, handled, depth):
      instant(name.hasPrefix("UIScene.") ? "SceneDelegate" : "AppDelegate", name, ts,
              args: args + [("handled", .bool(handled)), ("depth", .int(Int64(depth)))])
    case let .expectationChecked(name, passed, message, at):
      instant("System", "\(passed ? "✔" : "✘") \(name)", ts,
              args: args + [("message", .string(message)), ("at", at.map(JSONValue.string) ?? .null)])
    case let .noted(name, message):
      instant("System", name, ts, args: args + [("message", .string(message))])
    case let .pushed(c), let .presented(c, _, _):
      _ = track(c)
    case .applicationStateChanged, .sceneConnected, .sceneDisconnected, .sceneSessionChanged, .rootBuilt, .popped, .dismissed,
         .tabSelected, .protectedDataChanged, .restorationChanged:
      break
    }
  }

  /// A background task's bar, on a track of its own: from its begin to its end (or the kill).
  private mutating func task(_ call: AppCall, seq: Int64, args: [(String, JSONValue)], ts: Int64) {
    switch call {
    case let .beginBackgroundTask(name, task):
      begin("Background task \(task)", at: ts)
      tasks[task] = (name, ts, args)
    case let .endBackgroundTask(task):
      if let b = tasks.removeValue(forKey: task) {
        span("Background task \(task)", "task \(task) \"\(b.name)\"", from: b.ts, to: ts, args: b.args + [("end_seq", .int(seq))])
      }
    case .work, .store, .log, .observe, .after, .completion, .push, .pop, .present, .dismiss, .holdLock, .releaseLock,
         .setNotificationDelegate, .restorationHandler, .registerBGTask, .submitBGTask, .setTaskCompleted, .backgroundTransfer,
         .extendStateRestoration, .completeStateRestoration:
      break
    }
  }

  /// The "App state" track: process state while not running, prewarmed or suspended, the
  /// application state while running.
  private mutating func showAppState(at ts: Int64, args: [(String, JSONValue)]) {
    let label: String
    switch state.process {
    case .notRunning: label = "not_running"
    case .prewarmed: label = "prewarmed"
    case .suspended: label = "suspended"
    case .running: label = state.applicationState.rawValue
    }
    guard label != appState.label else { return }
    closeAppState(at: ts)
    appState = (label, ts, args)
    begin("App state", at: ts)
  }

  private mutating func closeAppState(at ts: Int64) {
    guard !appState.args.isEmpty else { return }
    span("App state", appState.label, from: appState.ts, to: ts, args: appState.args)
  }

  /// A kill ends every open callback and task at the kill: each keeps its args, plus `killed`.
  private mutating func closeAll(at ts: Int64) {
    for o in open.reversed() { span(o.track, o.name, from: o.ts, to: ts, args: o.args + [("killed", .bool(true))]) }
    open.removeAll()
    for (task, b) in tasks.sorted(by: { $0.key < $1.key }) {
      span("Background task \(task)", "task \(task) \"\(b.name)\" (killed)", from: b.ts, to: ts, args: b.args + [("killed", .bool(true))])
    }
    tasks.removeAll()
  }

  mutating func finish() {
    if clock == .virtual { countdown(to: lastT + 1) }
    let end = clock == .sequence ? lastTs + 1 : lastTs
    closeAll(at: end)
    closeAppState(at: end)
    for text in queue.drain() { write(text) }
    sink.write("]}")
  }
}

extension EventBody {
  /// The process stops running with this event (the background-time counter holds from here).
  var endsProcessRun: Bool {
    switch self {
    case .suspended, .terminated, .crashed: return true
    case .inputPerformed, .applicationStateChanged, .sceneActivationChanged, .sceneConnected, .sceneDisconnected, .sceneSessionChanged, .rootBuilt,
         .pushed, .popped, .presented, .dismissed, .tabSelected, .protectedDataChanged, .restorationChanged, .processStarted, .launchContinued,
         .resumed, .callbackDelivered, .returned, .appCalled, .notificationPosted, .expectationChecked, .noted:
      return false
    }
  }
}
