/// Something the system holds under an id that only grows (a transfer, a background task).
public protocol HeldByID: Equatable, Sendable {
  var id: Int { get }
}

/// Items held by the system in the order they came (their ids only grow), indexed by id: finding,
/// changing or letting go of one costs O(1) amortized, not a scan of them all. One app callback
/// can start hundreds of thousands of them; removing each from an array made delivering 100,000
/// transfers take 47 s, and expiring 200,000 background tasks 13 s.
///
/// Removal is lazy: an id stays in `order` until more than half of it is gone, so iteration
/// costs at most twice the items held.
public struct ItemsByID<Item: HeldByID>: Sequence, Equatable, Sendable {
  private var byID: [Int: Item] = [:]
  /// Every id held, oldest first, removed ones included until the next compaction.
  private var order: [Int] = []
  /// `order` before this holds only removed ids.
  private var head = 0

  public init() {}

  public var isEmpty: Bool { byID.isEmpty }
  public var count: Int { byID.count }
  /// The oldest item held.
  public var first: Item? { head < order.count ? byID[order[head]] : nil }

  /// The item with `id`, if it is held; setting nil lets go of it.
  public subscript(id id: Int) -> Item? {
    get { byID[id] }
    set {
      if let newValue { update(newValue) } else { remove(id: id) }
    }
  }

  /// The items in the order they came.
  public func makeIterator() -> some IteratorProtocol<Item> {
    var ids = order[head...].makeIterator()
    let byID = byID
    return AnyIterator {
      while let id = ids.next() { if let item = byID[id] { return item } }
      return nil
    }
  }

  /// Holds `item`: a new id is the newest; a held one is replaced where it is.
  public mutating func update(_ item: Item) {
    if byID.updateValue(item, forKey: item.id) == nil { order.append(item.id) }
  }

  /// Lets go of the item `id`; what it was, if it was held.
  @discardableResult
  public mutating func remove(id: Int) -> Item? {
    guard let gone = byID.removeValue(forKey: id) else { return nil }
    while head < order.count, byID[order[head]] == nil { head += 1 }
    if order.count > Self.compactionFloor, byID.count * 2 < order.count {
      order.removeAll { byID[$0] == nil }
      head = 0
    }
    return gone
  }

  /// Changes every item held.
  public mutating func updateAll(_ change: (inout Item) -> Void) {
    byID = byID.mapValues { item in
      var changed = item
      change(&changed)
      return changed
    }
  }

  /// Lists shorter than this are not compacted.
  private static var compactionFloor: Int { 64 }

  public static func == (x: ItemsByID, y: ItemsByID) -> Bool { x.count == y.count && x.elementsEqual(y) }
}
