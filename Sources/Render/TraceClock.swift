/// The time axis of a chrome trace.
package enum TraceClock: String, CaseIterable {
  /// Every event is its own tick (`ts` = `seq` µs), so order and nesting show at any zoom; the
  /// virtual time is in each event's args (`t_us`).
  case sequence
  /// `ts` is the virtual time: callbacks last their virtual durations, and most last 0.
  case virtual
}

/// A callback of a chrome trace waiting for its `return`, which writes its slice.
struct OpenCallbackSlice {
  let name: String
  let target: String
  let track: String
  let ts: Int64
  /// Its args, as canonical members.
  let args: [UInt8]
}
