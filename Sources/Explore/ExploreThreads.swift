import Glibc
import Lifecycle
import ScriptHost

/// Runs `body(0..<count)` on `count` threads and waits for all.
func runInParallel(_ count: Int, _ body: (Int) -> Void) {
  if count == 1 { body(0); return }
  withoutActuallyEscaping(body) { body in
  var threads: [pthread_t] = []
  for job in 0..<count {
    let box = Unmanaged.passRetained(ThreadJob { body(job) }).toOpaque()
    var thread = pthread_t()
    pthread_create(&thread, nil, { raw in
      guard let raw else { return nil }
      let job = Unmanaged<ThreadJob>.fromOpaque(raw).takeRetainedValue()
      job.body()
      return nil
    }, box)
    threads.append(thread)
  }
  for t in threads { pthread_join(t, nil) }
  }
}

private final class ThreadJob {
  let body: () -> Void
  init(_ body: @escaping () -> Void) { self.body = body }
}

/// A buffer threads write disjoint slots of.
struct SendableBuffer<T>: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<T>
  init(_ buffer: UnsafeMutableBufferPointer<T>) { self.buffer = buffer }
}

/// What the progress line shows.
public struct ExploreProgress: Sendable {
  public var runs: Int
  /// Runs that failed (before grouping by signature and shrinking).
  public var failingRuns: Int
  public var covered: Int
  public var total: Int
}

/// Counts runs, failing runs and covered transitions across threads; reports at most every
/// 0.2 s, and only when someone listens.
final class ProgressCounter: @unchecked Sendable {
  private var lock = pthread_mutex_t()
  private var last = 0.0
  private var progress: ExploreProgress
  private let total: Set<Transition>
  private var covered: Set<Transition> = []

  init(total: Set<Transition>) {
    self.total = total
    progress = ExploreProgress(runs: 0, failingRuns: 0, covered: 0, total: total.count)
    pthread_mutex_init(&lock, nil)
  }

  /// Counts a run that failed `failures` times more and covered `newlyCovered` first in its lane.
  func add(failures: Int, covered newlyCovered: [Transition], _ report: ((ExploreProgress) -> Void)?) {
    guard let report else { return }
    pthread_mutex_lock(&lock)
    defer { pthread_mutex_unlock(&lock) }
    progress.runs += 1
    progress.failingRuns += failures
    covered.formUnion(newlyCovered)
    let now = WallTime.now()
    guard now - last >= 0.2 else { return }
    last = now
    progress.covered = covered.intersection(total).count
    report(progress)
  }
}

/// Seconds on a monotonic clock (the deadline of `--time`, and the CLI's runs per second).
package enum WallTime {
  package static func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }
}
