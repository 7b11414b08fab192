/// The transfers of background URL sessions the system holds, in the order they started,
/// indexed by id (`ItemsByID`) and by session: delivering one, finding a session's and listing
/// the sessions cost what they touch, not a scan of every transfer (explore lists the sessions
/// on every step).
public struct BackgroundTransfers: Sequence, Equatable, Sendable, ExpressibleByArrayLiteral {
  private var items = ItemsByID<BackgroundTransfer>()
  /// Each session's ids, oldest first, removed ones included until its next compaction, and
  /// how many of them are held.
  private var bySession: [String: (ids: [Int], live: Int)] = [:]
  /// How many of the transfers are cancelled (a force quit): none means nothing to look for.
  public private(set) var cancelledCount = 0

  public init() {}

  public init(arrayLiteral transfers: BackgroundTransfer...) {
    for transfer in transfers { append(transfer) }
  }

  public var isEmpty: Bool { items.isEmpty }
  public var count: Int { items.count }

  /// The transfer with `id`, if it is still held.
  public subscript(id id: Int) -> BackgroundTransfer? { items[id: id] }

  /// The transfers in the order they started.
  public func makeIterator() -> some IteratorProtocol<BackgroundTransfer> { items.makeIterator() }

  /// The transfers of `session`, in the order they started.
  public func inSession(_ session: String) -> [BackgroundTransfer] {
    (bySession[session]?.ids ?? []).compactMap { items[id: $0] }
  }

  /// The sessions holding a transfer, in the order of each one's oldest transfer held.
  public var sessions: [String] {
    bySession.compactMap { session, list in list.ids.first { items[id: $0] != nil }.map { (first: $0, session: session) } }
      .sorted { $0.first < $1.first }.map(\.session)
  }

  /// Holds a new transfer (ids grow: it is the newest).
  public mutating func append(_ transfer: BackgroundTransfer) {
    if let old = items[id: transfer.id] {
      remove(id: old.id)
    }
    items.update(transfer)
    bySession[transfer.session, default: ([], 0)].ids.append(transfer.id)
    bySession[transfer.session]?.live += 1
    if transfer.cancelled { cancelledCount += 1 }
  }

  /// Lets go of the transfer `id` (delivered); nothing if it is not held.
  public mutating func remove(id: Int) {
    guard let gone = items.remove(id: id) else { return }
    if gone.cancelled { cancelledCount -= 1 }
    guard var list = bySession.removeValue(forKey: gone.session) else { return }
    list.live -= 1
    guard list.live > 0 else { return }
    if list.ids.count > Self.compactionFloor, list.live * 2 < list.ids.count { list.ids.removeAll { items[id: $0] == nil } }
    bySession[gone.session] = list
  }

  /// A force quit: every transfer held is cancelled.
  public mutating func cancelAll() {
    items.updateAll { $0.cancelled = true }
    cancelledCount = items.count
  }

  /// Session lists shorter than this are not compacted.
  private static let compactionFloor = 64

  public static func == (x: BackgroundTransfers, y: BackgroundTransfers) -> Bool {
    x.count == y.count && x.elementsEqual(y)
  }
}

extension BackgroundTransfer: HeldByID {}
