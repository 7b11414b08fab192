import Dispatch

/// The ids of the layouts a stream's memos keep (`MemberLayoutMemo`), one for each text from
/// the kind on, whichever memo met it first: the stream's parts are scanned by separate memos,
/// and a decoded body kept by id (`EventBodyMemo`) is then kept once for the stream rather
/// than once for each memo. The ids' low 32 bits are the stream's number shifted by 8, their
/// high 32 bits count from 1 within the stream; 0 is never an id.
///
/// Limits: `layoutsMax` texts (each at most `MemberLayoutMemo.keyBytesMax` bytes, 2 MiB in
/// all); a text met after that gets no id. Asked only when a memo keeps a layout, so the lock
/// is taken once for each layout and memo, not for each line.
final class LayoutIDs: @unchecked Sendable {
  // @unchecked: `ids` is read and written only inside `lock.sync`.
  static let layoutsMax = 4_096

  private let streamBits: UInt64
  private var ids: [[UInt8]: UInt64] = [:]
  private let lock = DispatchQueue(label: "lifesim.log.fold.layouts")

  /// The ids of stream `streamNumber` (below `MemberLayoutMemo.streamsMax`).
  init(streamNumber: UInt64) {
    precondition(streamNumber < MemberLayoutMemo.streamsMax, "stream number \(streamNumber) out of range")
    streamBits = streamNumber << 8
  }

  /// The id of the text `bytes`: the one given before, or a new one; nil once `layoutsMax`
  /// texts have ids and `bytes` is not among them.
  func id(of bytes: UnsafeRawBufferPointer) -> UInt64? {
    let text = [UInt8](bytes)
    return lock.sync {
      if let known = ids[text] { return known }
      guard ids.count < Self.layoutsMax else { return nil }
      let id = UInt64(ids.count + 1) << 32 | streamBits
      ids[text] = id
      return id
    }
  }
}
