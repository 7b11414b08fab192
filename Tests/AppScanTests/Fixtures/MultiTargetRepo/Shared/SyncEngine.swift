import Foundation

final class SyncEngine {
  static let shared = SyncEngine()

  func sync(_ done: @escaping (Bool) -> Void) {
    done(true)
  }
}
