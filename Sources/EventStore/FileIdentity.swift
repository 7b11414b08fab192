#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file as the system knows it: its device and inode, links resolved. Two paths name the same
/// file exactly when their identities are equal, however they are spelled (`./a`, `b/../a`, a
/// symbolic or hard link), which is how a command tells that an output would be one of its inputs.
public struct FileIdentity: Hashable, Sendable {
  public let device: UInt64
  public let inode: UInt64

  /// The identity of the file at `path`; nil when there is no file there.
  public init?(path: String) {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    var info = stat()
    guard stat(resolved, &info) == 0 else { return nil }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
  }
}
