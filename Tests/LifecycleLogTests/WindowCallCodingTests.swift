import EventStore
import JSON
import Testing
@testable import Lifecycle
import LifecycleLog

/// The window app calls in the log (docs/log-format.md): exact bytes, read back as written, the
/// site only when named.
@Suite struct WindowCallCodingTests {
  @Test func frameAndDelegateWindowsAreWrittenAndReadBack() throws {
    #expect(canonicalLine(.appCalled(.frameWindow(shown: false, site: "AppDelegate.swift:12"), at: nil))
              == #"{"seq":1,"t":3,"kind":"call","name":"frameWindow","shown":false,"site":"AppDelegate.swift:12"}"#)
    #expect(canonicalLine(.appCalled(.frameWindow(shown: true, site: nil), at: nil)) == #"{"seq":1,"t":3,"kind":"call","name":"frameWindow","shown":true}"#)
    let bodies: [EventBody] = [
      .appCalled(.frameWindow(shown: false, site: "AppDelegate.swift:12"), at: nil), .appCalled(.frameWindow(shown: true, site: nil), at: nil),
      .appCalled(.delegateWindow(present: false, site: "Banner.swift:5"), at: nil), .appCalled(.delegateWindow(present: true, site: nil), at: nil),
    ]
    for (i, body) in bodies.enumerated() {
      #expect(try Event(Event(t: 5, body).logEvent(seq: Int64(i + 1))) == Event(t: 5, body))
    }
    let missing = LogEvent(seq: 4, t: 0, kind: .call, fields: [("name", .string("frameWindow"))])
    #expect(throws: Event.DecodingError.self) { try Event(missing) }
  }
}
