/// The iOS releases lifesim models, in one table: each release, the SDK an app that declares
/// none is built with on it (and the date rule that moves it), the first release with scenes and
/// the other releases the model's rules turn on, the release of a run that names none, and the
/// text every message and help names the releases with. Every release check of the package reads
/// it, so a new release, or the App Store's move to a newer SDK, is a change here alone (a test
/// holds Sources/ to that: no literal iOS version is compared anywhere else).
public struct IOSRelease: Sendable, Hashable {
  /// The major version (12 … 27).
  public let version: Int

  private init(unchecked version: Int) { self.version = version }

  /// Every release a new run may use, and every SDK an app may be built with, oldest first:
  /// 12 to 18, then 26 and 27 (Apple went from 18 to 26).
  public static let all: [IOSRelease] = [12, 13, 14, 15, 16, 17, 18, 26, 27].map(IOSRelease.init(unchecked:))
  /// The versions of `all`.
  public static let versions: [Int] = all.map(\.version)
  /// The newest release.
  public static var latest: IOSRelease { all[all.count - 1] }
  /// The release of a run that names none (`scenario { ios = … }`, `--ios`).
  public static let defaultRelease = IOSRelease(unchecked: 17)
  /// The version of `defaultRelease`.
  public static var defaultVersion: Int { defaultRelease.version }
  /// The versions a log header may name: older lifesims accepted every version from the first
  /// release to the latest, those Apple skipped included.
  public static let headerVersions = all[0].version...latest.version

  /// The SDK the App Store requires new apps to be built with, and so the SDK of an app that
  /// declares none: 26 until April 2027, when the App Store requires SDK 27 and this becomes 27.
  public static let appStoreSDK = 26

  /// The SDK an app that declares none is built with on iOS `ios` (any of `headerVersions`):
  /// the App Store's (`appStoreSDK`), or the run's iOS if that is older (an app built for the
  /// device it runs on).
  public static func defaultSDK(ios: Int) -> Int { min(appStoreSDK, ios) }

  /// The first release with scenes (UIScene); a run on an older one has none.
  public static let firstWithScenes = 13
  /// Whether iOS `ios` has scenes.
  public static func hasScenes(_ ios: Int) -> Bool { ios >= firstWithScenes }
  /// The first release that asks the secure pair of state restoration's opt-in questions
  /// (`shouldSaveSecureApplicationState`, 13.2 in Apple's releases; the profiles have whole versions).
  public static let firstWithSecureRestoration = 13
  /// The first release with BGContinuedProcessingTask.
  public static let firstWithContinuedProcessing = 26
  /// The first SDK that deprecates the app delegate's life-cycle callbacks (`deprecated_in_sdk`).
  public static let firstSDKDeprecatingAppDelegateLifeCycle = 26
  /// The release, and the SDK, from which a sceneless app traps at launch (the scene mandate).
  public static let sceneMandate = 27
  /// The first release whose runs' headers always record the SDK: a run on an older one records
  /// it only when it is not that release's default, so logs written before lifesim modelled
  /// SDKs keep their bytes.
  public static let firstRecordingSDK = 27

  /// "12 to 18, 26, or 27": the releases as every message and help text names them, made from
  /// `all` (runs of consecutive versions as ranges).
  public static let text: String = {
    var runs: [[Int]] = []
    for v in versions {
      if let last = runs.last?.last, last + 1 == v { runs[runs.count - 1].append(v) } else { runs.append([v]) }
    }
    let parts = runs.flatMap { run in run.count > 2 ? ["\(run[0]) to \(run[run.count - 1])"] : run.map(String.init) }
    return parts.count < 2 ? parts.joined() : parts.dropLast().joined(separator: ", ") + ", or " + parts[parts.count - 1]
  }()

  /// The release of version `version`, which `what` gave (`--ios`, `app: sdk`); refused with the
  /// one message that names the releases when lifesim models none of that version.
  public init(_ version: Int, _ what: String, as axis: Axis = .version) throws(Refusal) {
    guard Self.versions.contains(version) else { throw Refusal(what, shown: String(version), as: axis) }
    self.version = version
  }

  /// What a number names: an iOS version, or the SDK an app is built with.
  public enum Axis: String, Sendable {
    case version, sdk = "SDK"

    /// "a released iOS version (12 to 18, 26, or 27)": what such a number must be.
    public var expected: String { "a released iOS \(rawValue) (\(IOSRelease.text))" }
  }

  /// A number that is not a release lifesim models.
  public struct Refusal: Error, Equatable, CustomStringConvertible {
    /// "`what` must be a released iOS version (12 to 18, 26, or 27), not `shown`".
    public let description: String

    /// The refusal of `shown` (a number, or whatever a script gave instead) as `what`.
    public init(_ what: String, shown: String, as axis: Axis = .version) {
      description = "\(what) must be \(axis.expected), not \(shown)"
    }
  }

}
