/// Reads the labels the log gives instances: `NoteList#2`, `Scene#1`, `BackgroundTask#3`, `after#4`.
///
/// Callbacks name their target this way, so these run for nearly every event: they scan
/// UTF-8 for the `#` and allocate no arrays.
public enum InstanceLabel {
  /// The class part: `NoteList` of `NoteList#2` (the whole label when it has no `#`).
  public static func className(_ label: String) -> String {
    // On the label's bytes in place: every callback to a controller asks (a generic search
    // of the UTF-8 view cost five times as many instructions).
    var bytes = label
    let name = bytes.withUTF8 { utf8 -> String? in
      guard let hash = utf8.firstIndex(of: UInt8(ascii: "#")) else { return nil }
      return String(decoding: UnsafeBufferPointer(rebasing: utf8[..<hash]), as: UTF8.self)
    }
    return name ?? label
  }

  /// The number after the last `#`: 2 of `NoteList#2`; nil when there is none.
  public static func number(_ label: String) -> Int? {
    guard let hash = label.utf8.lastIndex(of: UInt8(ascii: "#")) else { return nil }
    return Int(label[label.utf8.index(after: hash)...])
  }
}
