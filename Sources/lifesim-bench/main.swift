// lifesim-bench: the in-process half of `bench/run` (model throughput, log write,
// log read+verify) and the writer child of the kill test. Prints one JSON object.
import EventStore
import JSON
import Lifecycle
import Explore
import LifecycleLog
import ScriptHost

#if canImport(Glibc)
import Glibc
#endif

/// An app with no code: UIKit's sequence only (the model alone).
final class NullApp: AppDriver {
  func startProcess(services: AppServices) -> Result<AppLayout, AppFault> { .success(AppLayout(name: "Bench", roots: ["Root"], container: .navigation)) }
  func endProcess() {}
  func implements(_ callback: Callback, target: String) -> Bool { false }
  func declares(controller name: String) -> Bool { true }
  func declaredLayout() -> AppLayout { AppLayout(name: "Bench", roots: ["Root"], container: .navigation) }
  func run(_ job: AppJob, services: AppServices) -> Result<JSONValue?, AppFault> { .success(nil) }
}

func now() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func peakRSSBytes() -> Int {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Int(usage.ru_maxrss) * 1024
}

func emit(_ pairs: [(String, JSONValue)]) { print(JSONValue.object(pairs).canonicalText) }

/// Launch / home / 60 s / return cycles through the model with no app and no log.
func model(cycles: Int) -> [(String, JSONValue)] {
  var events = 0
  let sim = Simulator(profile: Profile(), driver: NullApp()) { _ in events += 1 }
  let start = now()
  do {
    try sim.perform(.launch(url: nil))
    for _ in 0..<cycles {
      try sim.perform(.home)
      try sim.perform(.advance(us: 60_000_000))
      try sim.perform(.launch(url: nil))
    }
  } catch { fatalError("\(error)") }
  let seconds = now() - start
  return [("events", .int(Int64(events))), ("seconds", .double(seconds)), ("eventsPerSecond", .double(Double(events) / seconds))]
}

/// Typical events from the model, written through LogWriter; then the same bytes with plain writes.
func write(events count: Int, path: String) -> [(String, JSONValue)] {
  var events: [Event] = []
  events.reserveCapacity(count)
  let sim = Simulator(profile: Profile(), driver: NullApp()) { if events.count < count { events.append($0) } }
  do {
    try sim.perform(.launch(url: nil))
    while events.count < count {
      try sim.perform(.home); try sim.perform(.advance(us: 60_000_000)); try sim.perform(.launch(url: nil))
    }
  } catch { fatalError("\(error)") }
  POSIXFile.remove(path)
  let header = LogHeader(lifesim: "bench", lua: "Lua 5.4", profile: Profile().json, scenes: true, seed: 1, scripts: [])
  let start = now()
  do {
    let w = try LogWriter(path: path, header: header)
    for e in events { try w.append(t: e.t, kind: e.body.kind) { e.body.encodeFields(into: &$0) } }
    try w.finish(outcome: .null)
  } catch { fatalError("\(error)") }
  let seconds = now() - start
  // The raw floor: the same bytes, 64 KiB writes, one fsync.
  let bytes = POSIXFile.readAll(path) ?? []
  let raw = path + ".raw"
  POSIXFile.remove(raw)
  let rawStart = now()
  guard case let .success(out) = POSIXFile.openForWriting(raw, exclusive: true) else { fatalError("cannot write \(raw)") }
  for offset in stride(from: 0, to: bytes.count, by: 65536) {
    _ = bytes[offset..<min(offset + 65536, bytes.count)].withUnsafeBytes { POSIXFile.writeAll(out, $0) }
  }
  _ = POSIXFile.sync(out)
  POSIXFile.close(out)
  let rawSeconds = now() - rawStart
  POSIXFile.remove(raw)
  return [("events", .int(Int64(count))), ("bytes", .int(Int64(bytes.count))), ("seconds", .double(seconds)),
          ("eventsPerSecond", .double(Double(count) / seconds)), ("rawSeconds", .double(rawSeconds))]
}

/// Reads and verifies a log: events/s and peak memory.
func read(path: String) -> [(String, JSONValue)] {
  let start = now()
  var events = 0
  do {
    let r = try LogReader(path: path, mode: .integrity)
    while let line = try r.next() { if case .event = line { events += 1 } }
  } catch { fatalError("\(error)") }
  let seconds = now() - start
  return [("events", .int(Int64(events))), ("seconds", .double(seconds)), ("eventsPerSecond", .double(Double(events) / seconds)),
          ("peakRSSBytes", .int(Int64(peakRSSBytes())))]
}

/// The kill test's child: writes events as fast as it can; after every flush prints the
/// highest event the kernel has (one line, `flushed N`), until killed.
func writeForever(path: String) -> Never {
  let header = LogHeader(lifesim: "kill-test", lua: "Lua 5.4", profile: Profile().json, scenes: true, seed: 1, scripts: [])
  do {
    let w = try LogWriter(path: path, header: header, options: .init(bufferBytes: 4096))
    var i: Int64 = 0
    while true {
      i += 1
      try w.append(t: i, kind: .note) { $0.field("name", "n"); $0.field("message", "event \(i) of a run that never ends") }
      if i % 97 == 0 {
        try w.flush()
        let line = Array("flushed \(w.writtenSeq)\n".utf8)
        _ = line.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
      }
    }
  } catch { fatalError("\(error)") }
}

/// `lifesim explore` of a small app: runs/s and events/s inside explore (wall and CPU).
/// `pooled: false` builds every process's Lua state (no `AppStatePool`), the path before it.
func explore(app: String, runs: Int, jobs: Int, pooled: Bool) -> [(String, JSONValue)] {
  do {
    var options = ExploreOptions(path: app, runs: runs, steps: 30, seed: 1, jobs: jobs)
    options.reusesProcessStates = pooled
    let explorer = try Explorer(options)
    let cpu0 = cpuSeconds(), start = now()
    let result = try explorer.explore()
    let wall = now() - start, cpu = cpuSeconds() - cpu0
    return [("runs", .int(Int64(result.runs))), ("events", .int(result.events)), ("findings", .int(Int64(result.findings.count))),
            ("seconds", .double(wall)), ("cpu_seconds", .double(cpu)), ("runs_per_s", .double(Double(result.runs) / wall)),
            ("events_per_s", .double(Double(result.events) / wall)), ("runs_per_cpu_s", .double(Double(result.runs) / cpu))]
  } catch {
    return [("error", .string(error.message))]
  }
}

/// Shrinks a 200-verb run of bench/explore_shrink.lua whose failure is planted at verb 150:
/// launch at verb 1, the Vault presented at 148, the memory warning at 150, noise elsewhere.
func shrink(app: String) -> [(String, JSONValue)] {
  let noise: [Input] = [.rotate(.landscape), .rotate(.portrait), .memoryWarning, .present("Other", style: nil, navigation: false),
                        .dismiss, .push("Other"), .pop, .home, .launch(url: nil), .advance(us: 3_000_000), .lock, .unlock]
  var inputs: [Input] = [.launch(url: nil)]
  while inputs.count < 147 { inputs.append(noise[inputs.count % noise.count]) }
  inputs += [.launch(url: nil), .present("Vault", style: nil, navigation: false), .rotate(.landscape), .memoryWarning]
  while inputs.count < 200 { inputs.append(noise[inputs.count % noise.count]) }
  do {
    let explorer = try Explorer(ExploreOptions(path: app, seed: 1, jobs: 1))
    let start = now()
    guard let outcome = try explorer.shrink(inputs) else { return [("error", .string("the planted run did not fail"))] }
    return [("seconds", .double(now() - start)), ("verbs", .int(Int64(outcome.inputs.count))),
            ("attempts", .int(Int64(outcome.attempts))), ("signature", .string(outcome.signature.text)),
            ("shrunk", .array(outcome.inputs.map { .string(VerbCallText.call($0)) }))]
  } catch {
    return [("error", .string(error.message))]
  }
}

func cpuSeconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

let args = CommandLine.arguments
switch args.dropFirst().first {
case "explore": emit(explore(app: args[2], runs: Int(args[3]) ?? 10_000, jobs: Int(args[4]) ?? 2, pooled: !args.contains("--no-pool")))
case "explore-shrink": emit(shrink(app: args[2]))
case "model": emit(model(cycles: Int(args[2]) ?? 100_000))
case "write": emit(write(events: Int(args[2]) ?? 1_000_000, path: args[3]))
case "read": emit(read(path: args[2]))
case "write-forever": writeForever(path: args[2])
case "calls":
  let n = Int(args[2]) ?? 10_000_000
  guard let ns = HostBenchmark.callNanoseconds(calls: n) else { print("the benchmark app did not launch"); exit(1) }
  emit([("calls", .int(Int64(n))), ("swiftToLuaNs", .double(ns.swiftToLua)), ("luaToSwiftNs", .double(ns.luaToSwift)),
        ("luaToLuaInAppNs", .double(ns.luaToLuaInApp))])
case "patterns":
  // bench/patterns.lua in the sandbox: seconds per case (best of 5); --as-app: with an app's hook and collector.
  guard let bytes = POSIXFile.readAll(args[2]) else { print("cannot read \(args[2])"); exit(2) }
  let source = String(decoding: bytes, as: UTF8.self)
  let asApp = args.count > 3 && args[3] == "--as-app"
  emit(HostBenchmark.patternSeconds(source: source, repeats: 5, asApp: asApp).map { ($0.name, .double($0.seconds)) })
case "hash":
  // The hashing floor: the chain over every line of a log, nothing else.
  let bytes = POSIXFile.readAll(args[2]) ?? []
  let start = now()
  var chain = HashChain()
  var lineStart = 0
  var lines = 0
  bytes.withUnsafeBytes { raw in
    for i in 0..<raw.count where raw[i] == 0x0A {
      _ = chain.link(UnsafeRawBufferPointer(rebasing: raw[lineStart..<i]))
      lineStart = i + 1
      lines += 1
    }
  }
  let chainSeconds = now() - start
  let whole = now()
  _ = HashChain.hex(of: bytes)
  emit([("lines", .int(Int64(lines))), ("seconds", .double(chainSeconds)), ("oneBufferSeconds", .double(now() - whole))])
case "lua-quote":
  // The reliability suite's round trip: each line of stdin, hex digits, written as a Lua literal.
  while let line = readLine() {
    let digits = Array(line.utf8)
    let bytes = stride(from: 0, to: digits.count - digits.count % 2, by: 2).compactMap {
      UInt8(String(decoding: digits[$0..<($0 + 2)], as: UTF8.self), radix: 16)
    }
    print(LuaStringLiteral.quote(bytes))
  }
default:
  print("usage: lifesim-bench model CYCLES | write EVENTS PATH | read PATH | hash PATH | calls N | patterns FILE [--as-app] | write-forever PATH | lua-quote < HEX-LINES")
  exit(2)
}
