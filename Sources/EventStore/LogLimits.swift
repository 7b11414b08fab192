/// The limits of the log format, in one place: the writer refuses what a reader would refuse,
/// so a log that was written can always be read (`verify`, `replay`, `diff`, `export`).
public enum LogLimits {
  /// Decimal digits of `seq` and `t` that readers parse.
  public static let integerDigitsMax = 18
  /// The largest `seq` and `t` (µs): 18 nines, about 31,688 years of virtual time.
  public static let integerMax: Int64 = 999_999_999_999_999_999
  /// The latest virtual time a log can hold, µs.
  public static let timeMaxUs = integerMax
  /// The longest line, newline excluded (a header carries the scripts' sources).
  public static let lineBytesMax = 64 << 20
  /// The longest event body: a line less its `,"h":"<64 hex>"` (the closing brace is the body's).
  public static let bodyBytesMax = lineBytesMax - 70

  /// Why an event cannot be written, or nil when it fits the format.
  public static func problem(seq: Int64, t: Int64, bodyBytes: Int? = nil) -> String? {
    if seq > integerMax { return "event \(seq): more events than the log format allows (\(integerMax))" }
    if t > timeMaxUs { return "event \(seq): virtual time \(t) µs is past the latest the log format allows (\(timeMaxUs) µs)" }
    if let bodyBytes, bodyBytes > bodyBytesMax {
      return "event \(seq): \(bodyBytes) bytes is longer than a log line may be (\(lineBytesMax >> 20) MiB)"
    }
    return nil
  }
}
