/// Trace events on their way out, held per track so that a track's timestamps never go back:
/// a complete slice is known only when it ends, so whatever follows its start on its track waits
/// until it is written. Ties are written outer slice first (longer first), then in arrival order.
package struct TraceTrackQueue {
  private struct Entry {
    let ts: Int64
    let dur: Int64
    let order: Int
    let text: [UInt8]
  }

  /// The entries waiting on each track, by tid (tids are small and dense: an array, not a dictionary).
  private var pending: [[Entry]] = []
  /// The starts of the slices still open on each track, by tid.
  private var openStarts: [[Int64]] = []
  private var arrivals = 0

  /// Makes room for track `tid` in both arrays.
  private mutating func makeRoom(for tid: Int) {
    while pending.count <= tid { pending.append([]) }
    while openStarts.count <= tid { openStarts.append([]) }
  }

  /// A slice starts on `tid` at `ts`: later entries there wait for it.
  package mutating func open(_ tid: Int, at ts: Int64) {
    makeRoom(for: tid)
    openStarts[tid].append(ts)
  }

  /// The slice of `tid` that started at `ts` is no longer open (its entry comes with `put`).
  package mutating func close(_ tid: Int, startedAt ts: Int64) {
    guard tid < openStarts.count, let i = openStarts[tid].lastIndex(of: ts) else { return }
    openStarts[tid].remove(at: i)
  }

  /// The start of the earliest slice still open on `tid`, if any.
  private func earliestOpen(_ tid: Int) -> Int64? { tid < openStarts.count ? openStarts[tid].min() : nil }

  /// Whether an event of `tid` at `ts` must go through `put`: written at once, it would come
  /// before something of its track that must come first. When not, `put` would hand it straight back.
  package func holds(_ tid: Int, at ts: Int64) -> Bool {
    if tid < pending.count, !pending[tid].isEmpty { return true }
    guard let limit = earliestOpen(tid) else { return false }
    return ts >= limit
  }

  /// Queues `text`, an event of `tid` at `ts` lasting `dur` (0 for an instant), and returns the
  /// texts of `tid` that are now safe to write, in order.
  package mutating func put(_ tid: Int, ts: Int64, dur: Int64, _ text: [UInt8]) -> [[UInt8]] {
    arrivals += 1
    makeRoom(for: tid)
    pending[tid].append(Entry(ts: ts, dur: dur, order: arrivals, text: text))
    if let limit = earliestOpen(tid), ts >= limit { return [] }
    return ready(tid)
  }

  /// Everything still queued, track by track: the trace ends.
  package mutating func drain() -> [[UInt8]] {
    openStarts.removeAll()
    return pending.indices.flatMap { ready($0) }
  }

  private mutating func ready(_ tid: Int) -> [[UInt8]] {
    guard tid < pending.count else { return [] }
    var entries = pending[tid]
    let limit = earliestOpen(tid)
    entries.sort { ($0.ts, -$0.dur, $0.order) < ($1.ts, -$1.dur, $1.order) }
    let cut = limit.map { l in entries.firstIndex { $0.ts >= l } ?? entries.count } ?? entries.count
    pending[tid] = Array(entries[cut...])
    return entries[..<cut].map(\.text)
  }
}
