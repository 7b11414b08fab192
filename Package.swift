// swift-tools-version:6.0
import PackageDescription

// Dependency arrows (see docs/architecture.md), none pointing up:
//   lifesim → Explore → ScriptHost → Lifecycle → EventStore → CLibCrypto;  ScriptHost → LuaRuntime → CLua
//   lifesim → RunComparison → Lifecycle, EventStore;  lifesim → Suite → ScriptHost, RunComparison
// lifesim and ScriptHost also import the modules below them directly.
// EventStore and Lifecycle know neither Lua nor the command line.
let package = Package(
  name: "lifesim",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "lifesim", targets: ["lifesim"]),
    .library(name: "EventStore", targets: ["EventStore"]),
    .library(name: "Lifecycle", targets: ["Lifecycle"]),
    .library(name: "ScriptHost", targets: ["ScriptHost"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
  ],
  targets: [
    .systemLibrary(
      name: "CLua",
      pkgConfig: "lua5.4",
      providers: [.apt(["liblua5.4-dev"])]
    ),
    // SHA-256 for the hash chain from Debian's libcrypto (docs/decisions.md says why not swift-crypto).
    // No pkgConfig: its `-lcrypto` would link the shared library; EventStore links the archive.
    // `make deps` installs libssl-dev where pkg-config cannot find libcrypto.
    .systemLibrary(name: "CLibCrypto"),
    .target(
      name: "EventStore",
      dependencies: ["CLibCrypto"],
      // The static archive: only SHA-256's objects are linked in, and nothing is loaded at
      // start-up (the shared libcrypto added about 1 ms to every lifesim command).
      linkerSettings: [.linkedLibrary(":libcrypto.a", .when(platforms: [.linux]))]
    ),
    .target(name: "Lifecycle", dependencies: ["EventStore"]),
    // The Lua VM, its budgets and sandbox: the one importer of CLua (EventStore: only FNV1a).
    .target(name: "LuaRuntime", dependencies: ["CLua", "EventStore"]),
    .target(name: "ScriptHost", dependencies: ["LuaRuntime", "Lifecycle", "EventStore"]),
    // Random search for failing runs, their shrinking, the invariants and the findings.
    .target(name: "Explore", dependencies: ["ScriptHost", "LuaRuntime", "Lifecycle", "EventStore"]),
    // Comparing runs: replay's re-run against its recording, the event diff, the outcomes.
    .target(name: "RunComparison", dependencies: ["EventStore", "Lifecycle"]),
    // `lifesim test`: discovery, the iOS matrix, parallel cases and their reports.
    // Render: every text, page and export drawn from events and logs (trace, state, exports, hunks).
    .target(name: "Render", dependencies: ["RunComparison", "Lifecycle", "EventStore"]),
    .target(name: "Suite", dependencies: ["ScriptHost", "Render", "Lifecycle", "EventStore"]),
    .executableTarget(
      name: "lifesim",
      dependencies: [
        "Suite", "Explore", "Render", "ScriptHost", "RunComparison", "Lifecycle", "EventStore",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
      // No linker flags here: `make release` links the fully static binary (see the Makefile),
      // and a package with unsafeFlags cannot be used as a dependency.
    ),
    // Benchmarks and the log-writer child of the kill test; not part of the product.
    .executableTarget(name: "lifesim-bench", dependencies: ["Lifecycle", "EventStore", "LuaRuntime", "ScriptHost", "Explore"]),
    // libFuzzer entry point for the log reader (see docs/testing.md): builds as an empty program without the fuzzer flag.
    .executableTarget(name: "lifesim-fuzz-reader", dependencies: ["EventStore"]),
    // libFuzzer entry point for loading and running app scripts.
    .executableTarget(name: "lifesim-fuzz-script", dependencies: ["ScriptHost"]),
    // Helpers the test targets share: one seeded generator, temporary paths.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "EventStoreTests", dependencies: ["EventStore", "TestSupport"]),
    .testTarget(name: "LifecycleTests", dependencies: ["Lifecycle", "EventStore", "TestSupport"]),
    .testTarget(name: "LuaRuntimeTests", dependencies: ["LuaRuntime", "TestSupport"]),
    .testTarget(name: "ScriptHostTests", dependencies: ["ScriptHost", "LuaRuntime", "Lifecycle", "EventStore", "TestSupport"], exclude: ["Hostile"]),
    .testTarget(name: "ExploreTests", dependencies: ["Explore", "ScriptHost", "Lifecycle", "EventStore", "TestSupport"], exclude: ["ExploreApps"]),
    .testTarget(name: "RunComparisonTests", dependencies: ["RunComparison", "Lifecycle", "EventStore", "TestSupport"]),
    // ScriptHost only to record the bundled scenarios' logs the renderers are tested over.
    .testTarget(name: "RenderTests", dependencies: ["Render", "RunComparison", "ScriptHost", "Lifecycle", "EventStore", "TestSupport"]),
    .testTarget(name: "SuiteTests", dependencies: ["Suite", "Render", "ScriptHost", "Lifecycle", "EventStore", "TestSupport"]),
    // The command line in process: the fast paths of run and replay against ArgumentParser's reading.
    .testTarget(name: "lifesimTests", dependencies: ["lifesim", "TestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
    .testTarget(name: "CLITests", dependencies: ["EventStore", "TestSupport"], exclude: ["scripts", "Fixtures"]),
  ]
)
