import Dispatch

/// The next chunk of a file, read on another thread while the reader cuts the chunk before
/// into lines (`LineSource` with `readsAhead`): the kernel's copy of a file into the reader's
/// memory was a tenth of `diff`'s time, on a thread that had the other core idle.
///
/// The chunk is read `reserveBytes` into its buffer, so that the unfinished line at the end of
/// the chunk before can be put in front of it and the line read on without a copy of the chunk.
/// One read is in flight at a time; `wait` must end it before the file is closed or read elsewhere.
final class ReadAhead: @unchecked Sendable {
  // @unchecked: `buffer` and `result` belong to the reading task between `start` and `wait`
  // (the group orders the two), and to the caller's thread otherwise.

  /// Room before the chunk for the unfinished line of the chunk before (longer ones take the slow path).
  static let reserveBytes = 64 << 10

  /// Where the chunk is read (after the reserve), and the buffer's size.
  private(set) var buffer: UnsafeMutableRawPointer
  private var capacity: Int
  let chunkBytes: Int
  private var result: Result<Int, Errno> = .success(0)
  private var pending = false
  private let group = DispatchGroup()

  /// The size a buffer exchanged with this one must have at least.
  var bufferBytes: Int { Self.reserveBytes + chunkBytes }

  init(chunkBytes: Int) {
    self.chunkBytes = chunkBytes
    capacity = Self.reserveBytes + chunkBytes
    buffer = .allocate(byteCount: capacity, alignment: 1)
  }

  deinit {
    if pending { group.wait() }
    buffer.deallocate()
  }

  /// Starts reading up to `chunkBytes` of `fd` into the buffer, after the reserve.
  func start(_ fd: Int32) {
    precondition(!pending, "one read ahead at a time")
    pending = true
    group.enter()
    DispatchQueue.global().async { [self] in
      result = POSIXFile.read(fd, into: buffer + Self.reserveBytes, count: chunkBytes)
      group.leave()
    }
  }

  /// Whether a read was started and not yet waited for.
  var isPending: Bool { pending }

  /// Trades buffers with the reader: it takes the chunk just read, and gives back the one it
  /// has cut into lines, for the next read.
  func exchange(_ other: inout UnsafeMutableRawPointer, capacity otherCapacity: inout Int) {
    precondition(!pending && otherCapacity >= bufferBytes, "exchange a buffer no read is using, of a chunk's size")
    swap(&buffer, &other)
    swap(&capacity, &otherCapacity)
  }

  /// Waits for the read `start` began: the bytes read (0 at the end of the file), or the error.
  func wait() -> Result<Int, Errno> {
    precondition(pending, "no read ahead to wait for")
    group.wait()
    pending = false
    return result
  }
}
