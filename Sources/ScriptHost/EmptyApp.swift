/// The app a scenario runs against when it names none (no `scenario { app = … }`, no `--app`):
/// one controller, `ViewController`, as the root, and no handlers. A log records it under the
/// path `(built-in empty app)`; `run` says in its outcome that it was used.
public enum EmptyApp {
  /// The app's path in a log's header.
  public static let path = "(built-in empty app)"
  /// Its source, embedded in the log like any app's.
  static let source = "app {}\ncontroller \"ViewController\" {}\n"
}

extension RunResult {
  /// Whether the run used the empty app (the scenario names no app).
  public var usedEmptyApp: Bool { header?.scripts.first { $0.role == "app" }?.path == EmptyApp.path }
}
