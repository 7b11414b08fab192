import EventStore
import ScriptHost

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a suite's cases on worker threads in this process (each case has its own Lua
/// states, simulator and log; nothing is shared between them) and hands the results back
/// in case order, so every report is the same whatever the number of workers.
public final class SuiteRunner: @unchecked Sendable {
  private let cases: [SuiteCase]
  private let options: CaseOptions
  private let jobs: Int
  /// Guards `results`, `declarations`, `nextCase`, `done` and `failed`.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let finished = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var results: [CaseResult?]
  /// What each scenario file declared, from its first case that ran: its later cases outside
  /// its `ios_range` are skipped without running.
  private var declarations: [String: ScenarioDeclaration] = [:]
  private var nextCase = 0
  private var done = 0
  private var failed = 0

  /// Stack of each worker thread: scripts may recurse as deeply as on the main thread.
  static let workerStackBytes = 16 << 20

  public init(cases: [SuiteCase], options: CaseOptions, jobs: Int) {
    self.cases = cases
    self.options = options
    self.jobs = max(1, min(jobs, max(cases.count, 1)))
    results = Array(repeating: nil, count: cases.count)
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(finished, nil)
  }

  deinit {
    pthread_cond_destroy(finished)
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    finished.deallocate()
  }

  /// The number of worker threads when `-j` is not given: the processors online.
  public static var processorCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

  /// Runs every case; `onResult` gets each result in case order, and `onProgress` (cases done,
  /// failures so far) whenever a case ends, both on the calling thread.
  public func run(onResult: (CaseResult) -> Void, onProgress: (Int, Int) -> Void = { _, _ in }) -> [CaseResult] {
    var threads: [StackThread] = []
    for _ in 0..<(cases.isEmpty ? 0 : jobs) {
      if let thread = StackThread.start(stackBytes: Self.workerStackBytes, { [self] in work() }) { threads.append(thread) }
    }
    if threads.isEmpty { work() }  // no thread could be made: run them here
    var ordered: [CaseResult] = []
    ordered.reserveCapacity(cases.count)
    pthread_mutex_lock(mutex)
    var reported = 0
    while ordered.count < cases.count {
      if done != reported {
        reported = done
        let (d, f) = (done, failed)
        pthread_mutex_unlock(mutex); onProgress(d, f); pthread_mutex_lock(mutex)
      } else if let next = results[ordered.count] {
        ordered.append(next)
        pthread_mutex_unlock(mutex); onResult(next); pthread_mutex_lock(mutex)
      } else {
        pthread_cond_wait(finished, mutex)
      }
    }
    pthread_mutex_unlock(mutex)
    for thread in threads { thread.join() }
    return ordered
  }

  /// A worker: takes the next case until none is left.
  private func work() {
    while true {
      pthread_mutex_lock(mutex)
      let i = nextCase
      nextCase += 1
      let known = i < cases.count ? declarations[cases[i].file.path] : nil
      pthread_mutex_unlock(mutex)
      guard i < cases.count else { return }
      let (result, declared) = CaseRun.run(cases[i], options, known: known)
      pthread_mutex_lock(mutex)
      results[i] = result
      if let declared { declarations[cases[i].file.path] = declared }
      done += 1
      if result.status == .failed || result.status == .error { failed += 1 }
      pthread_cond_broadcast(finished)
      pthread_mutex_unlock(mutex)
    }
  }
}
