/// A log opened for reading in large chunks after its header, as `verify`
/// (`ParallelVerification`) and folding (`FoldPipeline`) read it: the header is read and
/// checked alone, then the file is opened a second time at its first event.
///
/// Only a regular file can be read twice. For anything else (a pipe such as
/// `<(zcat run.lifelog.gz)`) `open` reads nothing and gives nil, so `LogReader` can read it
/// once from its start.
struct ChunkedLogFile {
  /// Bytes read at a time at most. (1 MiB measured a little faster than 4 MiB on a 185 MB
  /// log: the threads find more of a chunk in their caches.)
  static let chunkBytesMax = 1 << 20
  /// Bytes read at a time at least, for a small log.
  static let chunkBytesMin = 64 << 10
  /// A small log is still read in this many chunks, so that reading overlaps checking.
  static let chunksMin = 8

  let header: LogHeader
  /// The chain after the header.
  let chain: HashChain
  /// Open at the first event; the caller closes it.
  let fd: Int32
  /// Bytes to read at a time: `chunkBytes` if given (the tests cut lines across chunks),
  /// else as the log's size asks.
  let chunkBytes: Int

  /// Reads the header of the log at `path` and opens the log again after it; nil where the
  /// log is no regular file or cannot be opened or positioned again. Throws the header's
  /// problem in `LogReader`'s words. Chunks are at most `largest` bytes unless `chunkBytes`
  /// says otherwise.
  static func open(_ path: String, chunkBytes: Int? = nil, largest: Int = chunkBytesMax) throws(LogProblem) -> ChunkedLogFile? {
    guard POSIXFile.isRegularFile(path) else { return nil }
    var chain = HashChain()
    var source = try LineSource.open(path, capacity: LineSource.headerBytes)
    let header = try LogReader.readHeader(from: &source, path: path, chain: &chain)
    let headerBytes = source.consumedBytes
    guard case let .success(fd) = POSIXFile.openForReading(path) else { return nil }
    guard let fileBytes = POSIXFile.size(fd), POSIXFile.seek(fd, to: headerBytes) == nil else {
      POSIXFile.close(fd)
      return nil
    }
    let chunkBytes = chunkBytes ?? min(largest, max(chunkBytesMin, (fileBytes - headerBytes) / chunksMin))
    return ChunkedLogFile(header: header, chain: chain, fd: fd, chunkBytes: chunkBytes)
  }
}
