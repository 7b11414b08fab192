import Testing
import TestSupport
@testable import Lifecycle

/// Issue 34: transfers are indexed by id and by session, background tasks by id. On generated
/// workloads the indexes answer as a plain array searched from the start does (the storage
/// they replaced).
@Suite struct HeldByIDTests {
  /// The storage before the index: an array, searched and filtered whole.
  private struct Reference {
    var transfers: [BackgroundTransfer] = []
    var sessions: [String] {
      var out: [String] = []
      for t in transfers where !out.contains(t.session) { out.append(t.session) }
      return out
    }
  }

  @Test func answersAsAnArraySearchedWholeDoes() {
    var random = SplitMix64(seed: 34)
    for _ in 0..<50 {
      var indexed = BackgroundTransfers(), reference = Reference()
      var nextID = 1
      for _ in 0..<(1 + random.below(600)) {
        switch random.below(10) {
        case 0..<5:
          let t = BackgroundTransfer(id: nextID, session: "s\(random.below(4))", startedAt: Int64(random.below(100)), durationUs: Int64(random.below(50)))
          nextID += 1
          indexed.append(t); reference.transfers.append(t)
        case 5..<9:
          let id = 1 + random.below(nextID)
          indexed.remove(id: id); reference.transfers.removeAll { $0.id == id }
        default:
          indexed.cancelAll()
          for i in reference.transfers.indices { reference.transfers[i].cancelled = true }
        }
        #expect(Array(indexed) == reference.transfers)
        #expect(indexed.count == reference.transfers.count && indexed.cancelledCount == reference.transfers.filter(\.cancelled).count)
        #expect(indexed.sessions == reference.sessions)
        for s in ["s0", "s1", "s2", "s3"] { #expect(indexed.inSession(s) == reference.transfers.filter { $0.session == s }) }
      }
    }
  }

  @Test func theStateFindsFinishedTransfersThroughTheSessionIndex() {
    var work = BackgroundWorkState()
    for (id, session, duration) in [(1, "b", 10), (2, "a", 0), (3, "b", 0), (4, "c", 99)] {
      work.transfers.append(BackgroundTransfer(id: id, session: session, startedAt: 0, durationUs: Int64(duration)))
    }
    #expect(work.sessionsWithFinishedTransfers(at: 5) == ["b", "a"])
    #expect(work.finishedTransfers("b", at: 5).map(\.id) == [3])
    work.transfers.remove(id: 1)
    #expect(work.sessionsWithFinishedTransfers(at: 5) == ["a", "b"])
    #expect(work.transfers[id: 1] == nil && work.transfers[id: 3]?.session == "b")
  }

  @Test func backgroundTasksAnswerAsAnArraySearchedWholeDoes() {
    var random = SplitMix64(seed: 35)
    for _ in 0..<50 {
      var indexed = BackgroundTasks(), reference: [BackgroundTask] = []
      var nextID = 1
      for _ in 0..<(1 + random.below(600)) {
        let id = 1 + random.below(nextID)
        switch random.below(10) {
        case 0..<4:
          let task = BackgroundTask(id: nextID, name: "t\(nextID)")
          nextID += 1
          indexed.begin(task); reference.append(task)
        case 4..<7:
          indexed.end(id: id); reference.removeAll { $0.id == id }
        default:
          indexed.markExpired(id: id)
          if let i = reference.firstIndex(where: { $0.id == id }) { reference[i].expirationCalled = true }
        }
        #expect(Array(indexed) == reference && indexed.first == reference.first && indexed[id: id] == reference.first { $0.id == id })
        #expect(indexed.unexpiredCount == reference.filter { !$0.expirationCalled }.count)
      }
    }
  }
}
