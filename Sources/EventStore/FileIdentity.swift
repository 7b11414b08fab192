/// A file as the system knows it: its device and inode, after resolving links. Two spellings
/// of one file (`./a.lua`, `dir/../a.lua`, a link to it, a hard link) have the same identity,
/// so every command compares its outputs with its inputs through this type.
public struct FileIdentity: Hashable, Sendable {
  public let device: UInt64
  public let inode: UInt64

  /// The identity of the file at `path` (links resolved); nil when nothing is there.
  public init?(path: String) {
    guard let (device, inode) = POSIXFile.deviceAndInode(path) else { return nil }
    self.device = device
    self.inode = inode
  }

  /// Why `output` may not be written: it is one of `inputs` (the first such input is named).
  /// nil when it is none of them. Every command that writes a file asks this before writing,
  /// `--force` or not.
  public static func refusal(writing output: String, over inputs: [String]) -> String? {
    guard let target = FileIdentity(path: output) else { return nil }
    guard let input = inputs.first(where: { FileIdentity(path: $0) == target }) else { return nil }
    return "\(output): is the input \(input); refusing to write over it, even with --force"
  }
}
