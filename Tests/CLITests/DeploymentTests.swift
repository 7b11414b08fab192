import Foundation
import Testing
import TestSupport

/// The Kubernetes manifest, read by PyYAML as JSON: (the Job's spec, its one container).
private func explorationJob() throws -> (spec: [String: Any], container: [String: Any]) {
  let path = repositoryRoot.path + "/deploy/kubernetes/explore-job.yaml"
  let r = try runProcess("/usr/bin/env", ["python3", "-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))", path])
  try #require(r.status == 0, "PyYAML (make test-tools installs it): \(r.err)")
  let job = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
  let spec = try #require(job["spec"] as? [String: Any])
  let pod = try #require((spec["template"] as? [String: Any])?["spec"] as? [String: Any])
  let containers = try #require(pod["containers"] as? [[String: Any]])
  try #require(containers.count == 1)
  return (spec, containers[0])
}

@Suite struct DeploymentTests {
  @Test func theKubernetesJobRunsTheImageThatMakeImageBuildsThroughItsEntryPoint() throws {
    let (spec, container) = try explorationJob()
    let image = try ContainerImage(containerfile: repositoryRoot.path + "/Containerfile")
    #expect(image.entryPoint == ["/usr/local/bin/lifesim"])
    // No command: the image's entry point runs, and there is no shell in the image to run anything else.
    #expect(container["command"] == nil)
    let makefile = try String(contentsOfFile: repositoryRoot.path + "/Makefile", encoding: .utf8)
    #expect(makefile.contains("\nIMAGE ?= \(container["image"] as? String ?? "?")\n"), "the manifest's image is not `make image`'s")
    // The bundled app it explores is in the image's working folder.
    let args = try #require(container["args"] as? [String])
    #expect(args.first == "explore")
    #expect(FileManager.default.fileExists(atPath: repositoryRoot.path + "/" + args[1]))
    // Shard arithmetic: one pod per shard, all at once, the index from the Job's completion index.
    let shard = try #require(args.firstIndex(of: "--shard-index").map { args[$0 + 1] })
    let n = try #require(Int(shard.split(separator: "/").last ?? ""))
    #expect(spec["completionMode"] as? String == "Indexed")
    #expect(spec["completions"] as? Int == n && spec["parallelism"] as? Int == n)
    #expect(16 % n == 0)
    #expect(shard == "$(SHARD_INDEX)/\(n)")
    let env = try #require(container["env"] as? [[String: Any]])
    let index = try #require(env.first { $0["name"] as? String == "SHARD_INDEX" })
    let field = ((index["valueFrom"] as? [String: Any])?["fieldRef"] as? [String: Any])?["fieldPath"] as? String
    #expect(field == "metadata.annotations['batch.kubernetes.io/job-completion-index']")
    // Each shard its own folder; a finding is the job's product, not a failed pod.
    #expect(args.firstIndex(of: "-o").map { args[$0 + 1] } == "/results/shard-$(SHARD_INDEX)")
    #expect(args.contains("--exit-zero"))
    // Every pod's shard is one the binary accepts, and it is --shard I+1/N's.
    for i in 0..<n {
      let out = temp("k8s-shard-\(i)")
      let r = try lifesim(["explore", args[1], "--runs", "4", "--shard-index", "\(i)/\(n)", "--exit-zero", "-o", out])
      #expect(r.status == 0, "\(r.err)")
      #expect(try String(contentsOfFile: out + "/report.json", encoding: .utf8).contains("\"shard\":\"\(i + 1)/\(n)\""))
    }
    let past = try lifesim(["explore", args[1], "--runs", "4", "--shard-index", "\(n)/\(n)"])
    #expect(past.status == 2 && past.err.contains("--shard-index must be I/N with 0 ≤ I < N"), "\(past.err)")
  }

  @Test func exitZeroKeepsTheFindingsAndTroubleStillExitsTwo() throws {
    let app = repositoryRoot.path + "/Tests/ExploreTests/ExploreApps/watchdog_path.lua"
    let plain = try lifesim(["explore", app, "--runs", "200", "--seed", "2"])
    #expect(plain.status == 1)
    let dir = temp("exit-zero")
    let zero = try lifesim(["explore", app, "--runs", "200", "--seed", "2", "--exit-zero", "-o", dir])
    #expect(zero.status == 0, "\(zero.err)")
    #expect(zero.out.hasSuffix("; 1 finding\n  finding 1: watchdog in SceneDelegate.sceneDidEnterBackground(_:), 3 verbs (\(dir)/finding-1.lua)\n"), "\(zero.out)")
    #expect(FileManager.default.fileExists(atPath: dir + "/finding-1.lua"))
    #expect(try lifesim(["explore", app + ".missing", "--exit-zero"]).status == 2)
  }

  /// SwiftPM refuses a versioned dependency whose targets carry unsafeFlags (the static-link
  /// flags used to be in Package.swift): a consumer pins this package by a tag and uses its
  /// libraries and its executable, as a plugin would.
  @Test func aPackageDependsOnLifesimByVersionAndBuilds() throws {
    let base = temporaryPath("lifesim-dependent", "packages")
    let library = base + "/lifesim", consumer = base + "/consumer"
    try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: consumer + "/Sources/consumer", withIntermediateDirectories: true)
    let copy = try runProcess("/bin/cp", ["-R", "Package.swift", "Sources", "Tests", library], cwd: repositoryRoot.path)
    try #require(copy.status == 0, "\(copy.err)")
    let tag = try runProcess("/bin/sh", ["-c", "git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm v1 && git tag 1.0.0"], cwd: library)
    try #require(tag.status == 0, "\(tag.err)")
    try """
      // swift-tools-version:6.0
      import PackageDescription
      let package = Package(
        name: "consumer",
        dependencies: [.package(url: "file://\(library)", from: "1.0.0")],
        targets: [.executableTarget(name: "consumer", dependencies: [
          .product(name: "Lifecycle", package: "lifesim"),
          .product(name: "EventStore", package: "lifesim"),
          .product(name: "JSON", package: "lifesim"),
          .product(name: "lifesim", package: "lifesim"),
        ])]
      )
      """.write(toFile: consumer + "/Package.swift", atomically: true, encoding: .utf8)
    try """
      import EventStore
      import JSON
      import Lifecycle
      print("default iOS \\(IOSRelease.defaultVersion); \\(JSONValue.int(7))")
      """.write(toFile: consumer + "/Sources/consumer/main.swift", atomically: true, encoding: .utf8)
    let build = try runProcess("/usr/bin/env", ["swift", "build"], cwd: consumer)
    try #require(build.status == 0, "\(build.out)\(build.err)")
    let ran = try runProcess(consumer + "/.build/debug/consumer", [], cwd: consumer)
    #expect(ran.status == 0)
    #expect(ran.out == "default iOS 17; int(7)\n", "\(ran.out)")
  }
}
