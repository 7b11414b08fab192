import EventStore
import JSON
import Lifecycle

/// Streams a run as Chrome Trace Event JSON (Perfetto opens it): one process named after the
/// scenario, with a pid derived from the run; a track per layer; callbacks and background tasks
/// as complete events; inputs, app calls, notifications, kills and expectations as instants on
/// their target's track. Every event carries `seq` and `t_us` in its args. The app state is
/// folded with `LifecycleState.evolve`, as a run folds it.
package struct ChromeTraceExporter: ~Copyable {
  package let sink: any ExportSink
  package let clock: TraceClock
  private let profile: Profile?
  private let pid: Int64
  private var first = true
  /// The trace lines not yet handed to the sink, written in place; after the first, each starts with a comma.
  private var out: TraceJSONBuffer
  /// Writes the lines to the sink on another thread.
  private let writer: TraceChunkWriter
  /// The constant start of every instant, slice and counter (up to `tid`, or a counter's `ts`).
  private let instantHead: [UInt8]
  private let spanHead: [UInt8]
  private let counterHead: [UInt8]
  private var tracks: [String: Int] = [:]
  /// The track `track` found last.
  private var lastTrack = (name: "", id: 0)
  private var queue = TraceTrackQueue()
  private var state = LifecycleState()
  /// Callbacks waiting for their `return`, innermost last.
  private var open: [OpenCallbackSlice] = []
  /// Background tasks begun and not ended: name, start and the args of their `beginBackgroundTask`.
  private var tasks: [Int: (name: String, ts: Int64, args: [UInt8])] = [:]
  /// The state shown on the "App state" track, and the `seq` and `t` of the event that started
  /// it (none: the process has not started yet, which the track leaves blank).
  private var appState: (label: String, ts: Int64, started: (seq: Int64, t: Int64)?) = ("not_running", 0, nil)
  private var lastTs: Int64 = 0, lastT: Int64 = 0
  /// The virtual time (virtual clock) and the value (sequence clock) of the last counter sample.
  private var lastCounterT: Int64 = -1
  private var lastCounterValue: Int64?

  private let flushBytes: Int

  /// `flushBytes`: how many bytes of lines are gathered before they go to the sink (the tests
  /// hand them over in small pieces: the bytes must not depend on where they are cut).
  package init(header: LogHeader, clock: TraceClock, sink: any ExportSink, flushBytes: Int = 1 << 20) {
    self.flushBytes = flushBytes
    out = TraceJSONBuffer(capacity: flushBytes + 4096)
    let profile = try? Profile(json: header.profile)
    let run = RunIdentity(header: header)
    self.profile = profile
    self.sink = sink
    self.clock = clock
    pid = run.pid
    writer = TraceChunkWriter(sink: sink)
    instantHead = Array("{\"ph\":\"i\",\"s\":\"t\",\"pid\":\(run.pid),\"tid\":".utf8)
    spanHead = Array("{\"ph\":\"X\",\"pid\":\(run.pid),\"tid\":".utf8)
    counterHead = Array("{\"ph\":\"C\",\"pid\":\(run.pid),\"ts\":".utf8)
    sink.write("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[")
    let name = run.scenario + (profile.map { " (iOS \($0.ios), seed \(header.seed))" } ?? " (seed \(header.seed))")
    metadata("process_name", tid: nil, "name", .string(name))
    metadata("process_labels", tid: nil, "labels", .string("run \(run.id), \(clock.rawValue) clock"))
    for name in Self.fixedTracks { _ = track(name) }
  }

  /// A chunk still being written points into `out`'s buffers.
  deinit { writer.wait() }

  /// The tracks every trace has, first: track `i` of these has tid `i + 1`.
  private static let fixedTracks = ["System", "App state", "AppDelegate", "SceneDelegate", "Background tasks"]

  private mutating func track(_ name: String) -> Int {
    // Comparing short strings costs less than hashing one, and a controller's events come in runs.
    if tracks.count >= Self.fixedTracks.count, let i = Self.fixedTracks.firstIndex(of: name) { return i + 1 }
    if name == lastTrack.name { return lastTrack.id }
    if let t = tracks[name] {
      lastTrack = (name, t)
      return t
    }
    let id = tracks.count + 1
    tracks[name] = id
    metadata("thread_name", tid: id, "name", .string(name))
    metadata("thread_sort_index", tid: id, "sort_index", .int(Int64(id)))
    return id
  }

  /// A metadata event (`ph` M), written at once: `{"ph":"M","pid":…,"tid":…,"name":…,"args":{key: value}}`.
  private mutating func metadata(_ name: StaticString, tid: Int?, _ key: StaticString, _ value: JSONValue) {
    var w = CanonicalJSONWriter()
    w.beginObject()
    w.field("ph", "M")
    w.field("pid", pid)
    if let tid { w.field("tid", tid) }
    w.field("name", name.description)
    w.key("args")
    w.beginObject()
    w.field(key, value)
    w.endObject()
    w.endObject()
    startLine()
    w.withBytes { out.raw($0) }
    endLine()
  }

  /// Starts a line of the trace in `out`: a comma before every event but the first.
  private mutating func startLine() {
    if !first { out.byte(UInt8(ascii: ",")) }
    first = false
  }

  /// Ends the line `startLine` began; hands the lines to the sink once there are enough.
  private mutating func endLine() {
    out.byte(UInt8(ascii: "\n"))
    if out.count >= flushBytes { handOff() }
  }

  /// Hands the gathered lines to the writer's thread (the sink ends the last one) and goes on
  /// in the other buffer.
  private mutating func handOff() {
    guard out.count > 0 else { return }
    writer.write(out.swapBuffers())
  }

  /// Writes the gathered lines to the sink and waits until they are written. An export that
  /// fails calls it too: standard output gets the events before the failure, line by line, as
  /// it did when each event went out on its own.
  package mutating func flush() {
    handOff()
    writer.wait()
  }

  /// A whole trace event `text`, queued until now, as a line.
  private mutating func write(_ text: [UInt8]) {
    startLine()
    out.raw(text)
    endLine()
  }

  /// Begins a trace event of track `tid` at `ts`: straight into the trace (nil), or, when
  /// something on its track must come first, into `out` only to be queued (where it starts).
  private mutating func beginEvent(_ tid: Int, ts: Int64) -> Int? {
    if queue.holds(tid, at: ts) { return out.count }
    startLine()
    return nil
  }

  /// Ends the trace event `beginEvent` began: a line of the trace, or queued (with whatever
  /// of its track may be written now).
  private mutating func endEvent(_ tid: Int, ts: Int64, dur: Int64, queuedFrom start: Int?) {
    guard let start else { return endLine() }
    let text = out.copy(from: start)
    out.truncate(to: start)
    for ready in queue.put(tid, ts: ts, dur: dur, text) { write(ready) }
  }

  /// A trace event being written: its track, time and length, and where it starts in `out`
  /// when it is to be queued.
  private struct Writing {
    let tid: Int
    let ts: Int64
    let dur: Int64
    let queuedFrom: Int?
  }

  /// Begins an instant on `track`, up to the opening of its args: the caller writes their
  /// members into `out` and calls `end`.
  private mutating func beginInstant(_ track: String, _ name: String, _ ts: Int64) -> Writing {
    let tid = self.track(track)
    let queued = beginEvent(tid, ts: ts)
    out.raw(instantHead)
    out.int(Int64(tid))
    out.raw(",\"ts\":")
    out.int(ts)
    out.raw(",\"name\":")
    out.string(name)
    out.raw(",\"args\":")
    out.openArgs()
    return Writing(tid: tid, ts: ts, dur: 0, queuedFrom: queued)
  }

  /// Marks the start of a slice on `track`, so nothing after it there is written before it.
  private mutating func begin(_ track: String, at ts: Int64) { queue.open(self.track(track), at: ts) }

  /// Begins a complete slice begun with `begin` (or lasting one tick or none, without it), up
  /// to the opening of its args, as `beginInstant`.
  private mutating func beginSpan(_ track: String, _ name: String, from: Int64, to: Int64, begun: Bool = true) -> Writing {
    let tid = self.track(track)
    if begun { queue.close(tid, startedAt: from) }
    let dur = max(0, to - from)
    let queued = beginEvent(tid, ts: from)
    out.raw(spanHead)
    out.int(Int64(tid))
    out.raw(",\"ts\":")
    out.int(from)
    out.raw(",\"dur\":")
    out.int(dur)
    out.raw(",\"name\":")
    out.string(name)
    out.raw(",\"args\":")
    out.openArgs()
    return Writing(tid: tid, ts: from, dur: dur, queuedFrom: queued)
  }

  /// Ends the trace event `beginInstant` or `beginSpan` began, after its args.
  private mutating func end(_ w: Writing) {
    out.raw("}}")
    endEvent(w.tid, ts: w.ts, dur: w.dur, queuedFrom: w.queuedFrom)
  }

  /// Args kept for a trace event written later (a callback until its return, a task until its
  /// end): written with `beginArgs`, `out.field` and `endArgs`, as canonical members.
  private mutating func beginArgs() -> Int {
    out.beginMembers()
    return out.count
  }

  private mutating func endArgs(_ start: Int) -> [UInt8] {
    let members = out.copy(from: start)
    out.truncate(to: start)
    return members
  }

  /// The args every trace event of a log event starts with.
  private mutating func time(_ seq: Int64, _ t: Int64) {
    out.field("seq", seq)
    out.field("t_us", t)
  }

  /// `"at": "script.lua:3"`, or `null` when the event has no place.
  private mutating func place(_ at: String?) {
    out.key("at")
    if let at { out.string(at) } else { out.raw("null") }
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
    sample("backgroundTimeRemaining (s)", "seconds", Double(value) / 1e6, ts: ts)
    lastCounterValue = value
  }

  /// One sample of the counter `name` (a track of its own in Perfetto), its value under `key`.
  private mutating func sample(_ name: String, _ key: StaticString, _ value: Double, ts: Int64) {
    startLine()
    out.raw(counterHead)
    out.int(ts)
    out.raw(",\"name\":")
    out.string(name)
    out.raw(",\"args\":{\"")
    out.raw(key); out.raw("\":")
    out.double(value)
    out.raw("}}")
    endLine()
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

  package mutating func add(seq: Int64, t: Int64, _ body: borrowing EventBody) {
    let ts = clock == .sequence ? seq : t
    if clock == .virtual { countdown(to: t) }
    let before = (state.process, state.applicationState, state.backgroundSince)
    if body.endsProcessRun, let value = remaining(at: t), clock == .virtual || value != lastCounterValue {
      counter(value, ts: ts)
      lastCounterT = t
    }
    state.evolve(at: t, body)
    record(body, seq: seq, t: t, ts: ts)
    showAppState(at: ts, seq: seq, t: t)
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
    switch body {
    case let .inputPerformed(input, at):
      let w = beginInstant("System", input.verb, ts)
      time(seq, t)
      place(at)
      end(w)
    case let .sceneActivationChanged(scene, from, to):
      let w = beginInstant(SceneTrackName.sceneDelegate(of: scene, in: state), "\(scene) → \(to.rawValue)", ts)
      time(seq, t)
      out.field("from", from.rawValue)
      end(w)
    case let .processStarted(mode, _): systemInstant("process started (\(mode.rawValue))", seq: seq, t: t, ts: ts)
    case .launchContinued: systemInstant("launch continued", seq: seq, t: t, ts: ts)
    case .suspended: systemInstant("suspended", seq: seq, t: t, ts: ts)
    case .resumed: systemInstant("resumed", seq: seq, t: t, ts: ts)
    case let .terminated(term):
      closeAll(at: ts)
      let w = beginInstant("System", "terminated: \(term.reason.rawValue)", ts)
      time(seq, t)
      out.field("code", term.code ?? "")
      out.field("description", term.description)
      end(w)
    case let .crashed(name, target, message, _):
      closeAll(at: ts)
      let w = beginInstant("System", "crash in \(target).\(name)", ts)
      time(seq, t)
      out.field("message", message)
      end(w)
    case let .callbackDelivered(cb, target, handled, depth, arguments):
      callbackDelivered(cb, target: target, handled: handled, depth: depth, arguments, seq: seq, t: t, ts: ts)
    case let .returned(name, target, used, _, value):
      callbackReturned(name, target: target, used: used, value: value, seq: seq, ts: ts)
    case let .appCalled(call, at):
      appCalled(call, at: at, seq: seq, t: t, ts: ts)
    case let .notificationPosted(name, handled, depth):
      let w = beginInstant(name.hasPrefix("UIScene.") ? SceneTrackName.of("SceneDelegate", in: state) : "AppDelegate", name, ts)
      time(seq, t)
      out.field("handled", handled)
      out.field("depth", depth)
      end(w)
    case let .expectationChecked(name, passed, message, at):
      let w = beginInstant("System", "\(passed ? "✔" : "✘") \(name)", ts)
      time(seq, t)
      out.field("message", message)
      place(at)
      end(w)
    case let .noted(name, message, _):
      let w = beginInstant("System", name, ts)
      time(seq, t)
      out.field("message", message)
      end(w)
    case let .pushed(c, _), let .presented(c, _, _, _):
      _ = track(SceneTrackName.of(c, in: state))
    case .applicationStateChanged, .sceneConnected, .sceneDisconnected, .sceneSessionChanged, .rootBuilt, .popped, .dismissed,
         .tabSelected, .protectedDataChanged, .restorationChanged:
      break
    }
  }

  /// A handled callback opens its slice (written at its return); another is a slice of one
  /// tick (sequence clock) or none.
  private mutating func callbackDelivered(_ cb: Callback, target: String, handled: Bool, depth: Int,
                                          _ arguments: CallbackArguments, seq: Int64, t: Int64, ts: Int64) {
    let track = SceneTrackName.chromeTrack(for: target, in: state)
    if handled {
      let start = beginArgs()
      callbackArgs(seq: seq, t: t, target: target, depth: depth, handled: handled, arguments)
      let args = endArgs(start)
      begin(track, at: ts)
      open.append(OpenCallbackSlice(name: cb.signature, target: target, track: track, ts: ts, args: args))
    } else {
      let w = beginSpan(track, cb.signature, from: ts, to: ts + (clock == .sequence ? 1 : 0), begun: false)
      callbackArgs(seq: seq, t: t, target: target, depth: depth, handled: handled, arguments)
      end(w)
    }
  }

  /// The slice of the innermost open callback of that name and target, from its delivery to now.
  private mutating func callbackReturned(_ name: String, target: String, used: Int64, value: JSONValue?, seq: Int64, ts: Int64) {
    guard let i = open.lastIndex(where: { $0.name == name && $0.target == target }) else { return }
    let o = open.remove(at: i)
    let w = beginSpan(o.track, name, from: o.ts, to: ts)
    out.members(o.args)
    out.field("return_seq", seq)
    out.field("used_us", used)
    if let value { out.field("value", value) }
    end(w)
  }

  /// An app call: an instant on its caller's track, and a background task's bar when it
  /// begins or ends one.
  private mutating func appCalled(_ call: AppCall, at: String?, seq: Int64, t: Int64, ts: Int64) {
    let start = beginArgs()
    time(seq, t)
    out.field("call", TraceFormatter.describe(call))
    place(at)
    let args = endArgs(start)
    let w = beginInstant(callerTrack, call.name, ts)
    out.members(args)
    end(w)
    task(call, seq: seq, args: args, ts: ts)
  }

  /// An instant on the System track whose args are `seq` and `t_us` alone.
  private mutating func systemInstant(_ name: String, seq: Int64, t: Int64, ts: Int64) {
    let w = beginInstant("System", name, ts)
    time(seq, t)
    end(w)
  }

  private mutating func callbackArgs(seq: Int64, t: Int64, target: String, depth: Int, handled: Bool, _ arguments: CallbackArguments) {
    time(seq, t)
    out.field("target", target)
    out.field("depth", depth)
    out.field("handled", handled)
    if let url = arguments.url { out.field("url", url) }
    if let animated = arguments.animated { out.field("animated", animated) }
    if let payload = arguments.payload { out.field("payload", payload) }
  }

  /// A background task's bar, on a track of its own: from its begin to its end (or the kill).
  private mutating func task(_ call: AppCall, seq: Int64, args: [UInt8], ts: Int64) {
    switch call {
    case let .beginBackgroundTask(name, task):
      begin("Background task \(task)", at: ts)
      tasks[task] = (name, ts, args)
    case let .endBackgroundTask(task):
      if let b = tasks.removeValue(forKey: task) {
        let w = beginSpan("Background task \(task)", "task \(task) \"\(b.name)\"", from: b.ts, to: ts)
        out.members(b.args)
        out.field("end_seq", seq)
        end(w)
      }
    case let .updateProgress(identifier, done, total):  // a continued task's progress, as its Live Activity shows it
      sample("continued \(identifier) (%)", "percent", Double(done) / Double(max(total, 1)) * 100, ts: ts)
    case .work, .store, .log, .observe, .after, .completion, .push, .pop, .present, .dismiss, .holdLock, .releaseLock, .setNotificationDelegate,
         .restorationHandler, .registerBGTask, .submitBGTask, .setTaskCompleted, .backgroundTransfer, .extendStateRestoration,
         .completeStateRestoration, .requestSceneActivation, .requestSceneDestruction, .choose, .delegateWindow, .frameWindow:
      break
    }
  }

  /// The "App state" track: process state while not running, prewarmed or suspended, the
  /// application state while running.
  private mutating func showAppState(at ts: Int64, seq: Int64, t: Int64) {
    let label: String
    switch state.process {
    case .notRunning: label = "not_running"
    case .prewarmed: label = "prewarmed"
    case .suspended: label = "suspended"
    case .running: label = state.applicationState.rawValue
    }
    guard label != appState.label else { return }
    closeAppState(at: ts)
    appState = (label, ts, (seq, t))
    begin("App state", at: ts)
  }

  private mutating func closeAppState(at ts: Int64) {
    guard let started = appState.started else { return }
    let w = beginSpan("App state", appState.label, from: appState.ts, to: ts)
    time(started.seq, started.t)
    end(w)
  }

  /// A kill ends every open callback and task at the kill: each keeps its args, plus `killed`.
  private mutating func closeAll(at ts: Int64) {
    for o in open.reversed() {
      let w = beginSpan(o.track, o.name, from: o.ts, to: ts)
      out.members(o.args)
      out.field("killed", true)
      end(w)
    }
    open.removeAll()
    for (task, b) in tasks.sorted(by: { $0.key < $1.key }) {
      let w = beginSpan("Background task \(task)", "task \(task) \"\(b.name)\" (killed)", from: b.ts, to: ts)
      out.members(b.args)
      out.field("killed", true)
      end(w)
    }
    tasks.removeAll()
  }

  package mutating func finish() {
    if clock == .virtual { countdown(to: lastT + 1) }
    let end = clock == .sequence ? lastTs + 1 : lastTs
    closeAll(at: end)
    closeAppState(at: end)
    for text in queue.drain() { write(text) }
    flush()
    sink.write("]}")
  }
}
