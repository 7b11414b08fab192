#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread with a stack of a given size, to join when its work is done: for work that
/// recurses as deep as its input nests (a scan's parse, a suite's cases). Every thread the
/// package starts itself is started here (`pthread_create`, `pthread_join`).
package struct StackThread {
  private let thread: pthread_t

  /// Starts `body` on a new thread with `stackBytes` of stack; nil when no thread could be
  /// made (then `body` has not run).
  package static func start(stackBytes: Int, _ body: @escaping @Sendable () -> Void) -> StackThread? {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, stackBytes)
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(&thread, &attributes, { raw in
      guard let raw else { return nil }
      Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
      return nil
    }, context)
    guard status == 0 else {
      Unmanaged<Body>.fromOpaque(context).release()
      return nil
    }
    return StackThread(thread: thread)
  }

  /// Waits for the thread's work to end.
  package func join() { pthread_join(thread, nil) }

  /// The closure, as an object its thread can be handed.
  private final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }
}
