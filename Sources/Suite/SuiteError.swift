/// A problem with what `lifesim test` was asked to do (a usage error: exit status 2).
public struct SuiteError: Error, Equatable, CustomStringConvertible, Sendable {
  public let message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
