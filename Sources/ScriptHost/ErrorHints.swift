import Lifecycle

/// Hints added to Lua's own error messages where lifesim knows what was meant.
enum ErrorHints {
  /// `t.lua:2: attempt to call a nil value (global 'hom')` gets ` (did you mean home()?)` when
  /// one of `names` (the API the script has) is close to the name called.
  static func undefinedCall(_ message: String, names: [String]) -> String {
    let marker = "attempt to call a nil value (global '"
    guard let start = message.firstRange(of: marker), let end = message[start.upperBound...].firstIndex(of: "'") else {
      return message
    }
    let called = String(message[start.upperBound..<end])
    guard let near = nearest(called, in: names) else { return message }
    return message + " (did you mean \(near)()?)"
  }
}
