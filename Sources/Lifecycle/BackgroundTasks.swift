/// The app's `beginBackgroundTask` tasks not yet ended, in the order they began, indexed by id
/// (`ItemsByID`), with how many have not had their expiration handler: ending or expiring one,
/// and asking whether any is left to expire (the scheduler asks at every step), cost O(1).
public struct BackgroundTasks: Sequence, Equatable, Sendable, ExpressibleByArrayLiteral {
  private var items = ItemsByID<BackgroundTask>()
  /// How many tasks held have not had their expiration handler called.
  public private(set) var unexpiredCount = 0

  public init() {}

  public init(arrayLiteral tasks: BackgroundTask...) {
    for task in tasks { begin(task) }
  }

  public var isEmpty: Bool { items.isEmpty }
  public var count: Int { items.count }
  /// The oldest task not yet ended.
  public var first: BackgroundTask? { items.first }

  /// The task with `id`, if it has not ended.
  public subscript(id id: Int) -> BackgroundTask? { items[id: id] }

  /// The tasks in the order they began.
  public func makeIterator() -> some IteratorProtocol<BackgroundTask> { items.makeIterator() }

  /// A new task (ids grow: it is the newest).
  public mutating func begin(_ task: BackgroundTask) {
    end(id: task.id)
    items.update(task)
    if !task.expirationCalled { unexpiredCount += 1 }
  }

  /// `endBackgroundTask(id)`: nothing if it is not held.
  public mutating func end(id: Int) {
    guard let gone = items.remove(id: id) else { return }
    if !gone.expirationCalled { unexpiredCount -= 1 }
  }

  /// The task `id`'s expiration handler was called.
  public mutating func markExpired(id: Int) {
    guard var task = items[id: id], !task.expirationCalled else { return }
    task.expirationCalled = true
    items.update(task)
    unexpiredCount -= 1
  }

  public static func == (x: BackgroundTasks, y: BackgroundTasks) -> Bool {
    x.count == y.count && x.elementsEqual(y)
  }
}

extension BackgroundTask: HeldByID {}
