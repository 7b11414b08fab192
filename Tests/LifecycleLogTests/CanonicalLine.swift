import JSON
import Lifecycle
import LifecycleLog

/// The log line of `body` as the first event at 3 µs, its hash left out: what these tests compare
/// with the exact bytes of the log format.
func canonicalLine(_ body: EventBody) -> String {
  var w = CanonicalJSONWriter(capacity: 128)
  Event(t: 3, body).canonicalBody(seq: 1, into: &w)
  return w.text
}
