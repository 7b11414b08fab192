import Lifecycle
import ScriptHost

/// One case of a suite: a scenario on one profile, with or without scenes.
public struct SuiteCase: Sendable, Equatable {
  /// The position in the whole run (before sharding): reports are in this order.
  public let index: Int
  public let file: ScenarioFile
  /// The profile; nil: the scenario's own `ios` (else 17).
  public let ios: Int?
  /// The sceneless variant of `--scenes both` (run as `--no-scenes`).
  public let sceneless: Bool
  /// The scenes variant of `--scenes both`: on a profile without scenes it cannot exist.
  public let needsScenes: Bool
  /// The SDK of `--compare sdk=A,B`'s variants (run as `--sdk N`); nil: the run's own.
  public let sdk: Int?
  /// The `choose` outcomes this case forces (`scan --check`'s variants), over the run's `--choose`.
  public let choices: ForcedChoices
  /// Which of the plan's choice variants it is: 0 for the first (its log's name has no suffix).
  public let choiceVariant: Int
  /// The start of its log's file name: the scenario file's name without `.lua`, or its path when
  /// two scenarios share that name, with `%` and `/` written `%25` and `%2F` (`SuitePlan.logBaseName`).
  public let logBaseName: String
}

extension Shard {
  /// Reads `--shard K/N` for `lifesim test`; the error says what was expected.
  public init(parsing text: String) throws(SuiteError) {
    guard let shard = Shard(text) else { throw SuiteError("--shard \(text): expected K/N with 1 <= K <= N, e.g. 2/4") }
    self = shard
  }
}

/// The cases of a run, in report order: scenario by scenario, profile by profile, scenes before no scenes.
public enum SuitePlan {
  /// `sdks`: one case per SDK for each profile and scenes variant (`--compare sdk=A,B`); `[nil]`: the run's own.
  /// `choiceVariants`: one case per set of forced choices (`scan --check`); the first runs on every
  /// profile, SDK and scenes variant, each later one on the first of them only.
  public static func cases(_ files: [ScenarioFile], profiles: [Int]?, scenesBoth: Bool, sdks: [Int?] = [nil],
                           choiceVariants: [ForcedChoices] = [ForcedChoices()], shard: Shard?) -> [SuiteCase] {
    var all: [SuiteCase] = []
    var stemCounts: [String: Int] = [:]
    for file in files { stemCounts[file.stem, default: 0] += 1 }
    let iosList: [Int?] = profiles ?? [nil]
    for file in files {
      let logBaseName = Self.logBaseName(stemCounts[file.stem] == 1 ? file.stem
                                           : String(file.path.dropLast(file.path.hasSuffix(".lua") ? 4 : 0)))
      for ios in iosList {
        let variants = scenesBoth ? [false, true] : [false]
        for sceneless in variants {
          for sdk in sdks {
            let first = ios == iosList.first && sceneless == variants.first && sdk == sdks.first
            for (variant, choices) in choiceVariants.enumerated() where variant == 0 || first {
              all.append(SuiteCase(index: all.count, file: file, ios: ios, sceneless: sceneless, needsScenes: scenesBoth && !sceneless,
                                   sdk: sdk, choices: choices, choiceVariant: variant, logBaseName: logBaseName))
            }
          }
        }
      }
    }
    guard let shard else { return all }
    return all.filter { shard.contains($0.index) }
  }

  /// A file name from a stem or a path: `%` is written `%25` and `/` `%2F`, so different scenario
  /// files never share a log (a unique stem has no `/`, so it never equals a path's name).
  static func logBaseName(_ stemOrPath: String) -> String {
    var name = ""
    for character in stemOrPath {
      switch character {
      case "%": name += "%25"
      case "/": name += "%2F"
      default: name.append(character)
      }
    }
    return name
  }
}
