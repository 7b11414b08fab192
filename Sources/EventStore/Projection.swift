/// Folds a log's events into a state value: the event-sourcing half of replay.
///
/// EventStore knows nothing of the state; the caller supplies how one event
/// changes it (Lifecycle supplies its `evolve`).
public struct Projection<State> {
  public var state: State
  public private(set) var lastSeq: Int64 = 0
  private let evolve: (inout State, LogEvent) throws -> Void

  public init(initial: State, evolve: @escaping (inout State, LogEvent) throws -> Void) {
    self.state = initial
    self.evolve = evolve
  }

  /// Applies one event.
  public mutating func apply(_ event: LogEvent) throws {
    try evolve(&state, event)
    lastSeq = event.seq
  }

  /// Reads `reader` to its end or to event `until` (inclusive), folding every event.
  public mutating func run(_ reader: LogReader, until: Int64? = nil) throws {
    while let line = try reader.next() {
      guard case let .event(event) = line else { continue }
      if let until, event.seq > until { break }
      try apply(event)
    }
  }
}
