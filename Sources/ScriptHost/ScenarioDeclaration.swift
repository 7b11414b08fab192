/// What a scenario's `scenario { … }` said about where it runs, as written: the suite
/// (`lifesim test`) reads it to name a case and to skip profiles the scenario excludes.
public struct ScenarioDeclaration: Sendable, Equatable {
  /// `ios = N` (nil: not stated).
  public var ios: Int?
  /// `scenes = true/false` (nil: not stated).
  public var scenes: Bool?
  /// `ios_range = "15-26"` as written (nil: not stated; `""` when it is not a string or number).
  public var iosRange: String?
  /// The `file:line` of the `scenario { … }` call that stated `ios_range`.
  public var iosRangeAt: String?

  public init(ios: Int? = nil, scenes: Bool? = nil, iosRange: String? = nil, iosRangeAt: String? = nil) {
    self.ios = ios; self.scenes = scenes; self.iosRange = iosRange; self.iosRangeAt = iosRangeAt
  }
}
