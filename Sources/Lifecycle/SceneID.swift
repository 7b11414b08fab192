/// A scene's identity in a run: `Scene#n`, numbered from 1 in connection order over the whole
/// run, relaunches included (0 is the label app code sees while no scene is connected). The
/// one place the `Scene#n` text is made and read back: the log names scenes so, expectations
/// (`Scene#2.sceneDidBecomeActive`) and renderers (a diff hunk's `@@ … @@ Scene#2`) read them.
public struct SceneID: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// `n` of `Scene#n`.
  public let number: Int

  /// The class part of a scene's label.
  public static let className = "Scene"

  /// The `n`th scene to connect (0: none connected yet). Any number a log holds is kept as
  /// read: a renderer prints it, and nothing traps on it.
  public init(number: Int) { self.number = number }

  /// Reads a label such as `Scene#2`; nil for any other label (`List#2`, `Scene`, `Scene#-1`,
  /// `Scene#2#3`).
  public init?(label: String) {
    guard let hash = label.utf8.firstIndex(of: UInt8(ascii: "#")), label[..<hash] == Self.className,
          let n = Int(label[label.utf8.index(after: hash)...]), n >= 0 else { return nil }
    self.init(number: n)
  }

  /// `Scene#n`.
  public var description: String { "\(Self.className)#\(number)" }

  public static func < (a: SceneID, b: SceneID) -> Bool { a.number < b.number }
}
