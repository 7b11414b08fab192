import Foundation
import Testing

/// What a Containerfile says about how its image runs: its entry point, working folder and
/// environment (ENTRYPOINT in exec form, WORKDIR, ENV KEY=VALUE), for tests that run the
/// image's tree without a container runtime.
struct ContainerImage {
  var entryPoint: [String] = []
  var workingDirectory = "/"
  var environment: [String: String] = [:]

  init(containerfile: String) throws {
    for line in try String(contentsOfFile: containerfile, encoding: .utf8).split(separator: "\n") {
      let words = line.split(separator: " ", maxSplits: 1).map(String.init)
      guard words.count == 2 else { continue }
      switch words[0] {
      case "ENTRYPOINT":
        entryPoint = try #require(try JSONSerialization.jsonObject(with: Data(words[1].utf8)) as? [String])
      case "WORKDIR": workingDirectory = words[1]
      case "ENV":
        let pair = words[1].split(separator: "=", maxSplits: 1).map(String.init)
        try #require(pair.count == 2, "ENV in KEY=VALUE form: \(line)")
        environment[pair[0]] = pair[1]
      default: continue
      }
    }
    try #require(!entryPoint.isEmpty, "no ENTRYPOINT in exec form in \(containerfile)")
  }
}
