import JSON

/// The data-protection class a stored key is kept under (`store(key, value, {protection=})`),
/// after Apple's file protection classes (docs/model.md §14).
public enum DataProtection: String, Sendable, CaseIterable {
  /// Readable and writable at any time, before the first unlock too.
  case none
  /// Unavailable from a reboot until the first unlock, then available even while locked (the default).
  case untilFirstUnlock
  /// Unavailable whenever protected data is (after the lock's delay, and before the first unlock).
  case complete
}

extension DataProtection {
  /// Whether data of this class can be read and written, the device's protected data being as given.
  public func isAvailable(firstUnlockPending: Bool, protectedDataAvailable: Bool) -> Bool {
    switch self {
    case .none: return true
    case .untilFirstUnlock: return !firstUnlockPending
    case .complete: return protectedDataAvailable && !firstUnlockPending
    }
  }
}

extension LifecycleState {
  /// Whether data of class `protection` can be read and written now.
  public func isAvailable(_ protection: DataProtection) -> Bool {
    protection.isAvailable(firstUnlockPending: firstUnlockPending, protectedDataAvailable: protectedDataAvailable)
  }

  /// The class `key` was last stored under (absent: the default, untilFirstUnlock).
  public func protection(of key: String) -> DataProtection {
    storeProtection[key] ?? .untilFirstUnlock
  }

  /// What the app's `stored(key)` reads: the value, or nil while the key's class is unavailable.
  public func readableStoredValue(_ key: String) -> JSONValue? {
    isAvailable(protection(of: key)) ? store[key] : nil
  }
}
