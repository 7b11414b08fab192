// swift-tools-version:6.0
import PackageDescription

// Dependency arrows (see docs/architecture.md), none pointing up:
//   JSON ← EventStore (files, the chain, readers) ← LifecycleLog → Lifecycle (the model) → JSON
//   LuaRuntime → CLua;  ScriptHost → LuaRuntime, LifecycleLog;  Explore → ScriptHost
//   RunComparison → ScriptHost (replay's re-run), LifecycleLog;  Render → RunComparison;  Suite → ScriptHost, Render, RunComparison
//   lifesim (thin commands) → AppScan, Suite, Explore, Render;  AppScan (lifesim scan) → Suite, Lifecycle
// Modules also import the modules below them directly. JSON, EventStore and Lifecycle know
// neither Lua nor the command line; Lifecycle reads and writes no file.
let package = Package(
  name: "lifesim",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "lifesim", targets: ["lifesim"]),
    .library(name: "JSON", targets: ["JSON"]),
    .library(name: "EventStore", targets: ["EventStore"]),
    .library(name: "Lifecycle", targets: ["Lifecycle"]),
    .library(name: "LifecycleLog", targets: ["LifecycleLog"]),
    .library(name: "ScriptHost", targets: ["ScriptHost"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // `lifesim scan` parses Swift: 603 is the release made for the 6.3 toolchain.
    .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
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
    // The Linux calls Swift's Glibc module leaves out (`sync_file_range`); a header, no library.
    .systemLibrary(name: "CSystem"),
    // SHA-256 of four hash-chain links side by side with the x86 SHA extensions (checking a
    // log: every line's previous digest is recorded, so lines need not wait for each other).
    .target(name: "CSHA256Lanes"),
    // JSON: the value, the parser, the canonical writer, the quick checker; no dependencies.
    .target(name: "JSON"),
    .target(
      name: "EventStore",
      dependencies: ["JSON", "CLibCrypto", "CSHA256Lanes", "CSystem"],
      // The static archive: only SHA-256's objects are linked in, and nothing is loaded at
      // start-up (the shared libcrypto added about 1 ms to every lifesim command).
      linkerSettings: [.linkedLibrary(":libcrypto.a", .when(platforms: [.linux]))]
    ),
    // The pure model of iOS: no file I/O.
    .target(name: "Lifecycle", dependencies: ["JSON"]),
    // Coding events to and from log lines, and coverage.
    .target(name: "LifecycleLog", dependencies: ["Lifecycle", "EventStore", "JSON"]),
    // The Lua VM, its budgets and sandbox: the one importer of CLua (EventStore: only FNV1a).
    .target(name: "LuaRuntime", dependencies: ["CLua", "EventStore"]),
    .target(name: "ScriptHost", dependencies: ["LuaRuntime", "LifecycleLog", "Lifecycle", "EventStore", "JSON"]),
    // Random search for failing runs, their shrinking, the invariants and the findings.
    .target(name: "Explore", dependencies: ["ScriptHost", "LuaRuntime", "LifecycleLog", "Lifecycle", "EventStore", "JSON"]),
    // Comparing runs: replay's re-run against its recording, the event diff, the outcomes.
    .target(name: "RunComparison", dependencies: ["ScriptHost", "LifecycleLog", "EventStore", "Lifecycle", "JSON"]),
    // `lifesim test`: discovery, the iOS matrix, parallel cases and their reports.
    // Render: every text, page and export drawn from events and logs (trace, state, exports, hunks).
    .target(name: "Render", dependencies: ["RunComparison", "LifecycleLog", "Lifecycle", "EventStore", "JSON"]),
    .target(name: "Suite", dependencies: ["ScriptHost", "Render", "RunComparison", "LifecycleLog", "Lifecycle", "EventStore", "JSON"]),
    // `lifesim scan`: reads a Swift app's delegates and Info.plist, reports its lifecycle risks.
    // `--check` runs its battery through Suite's session.
    .target(name: "AppScan", dependencies: [
      "Suite", "Render", "Lifecycle", "JSON", "EventStore", "ScriptHost",
      .product(name: "SwiftSyntax", package: "swift-syntax"), .product(name: "SwiftParser", package: "swift-syntax"),
    ]),
    .executableTarget(
      name: "lifesim",
      dependencies: [
        "AppScan", "Suite", "Explore", "Render", "ScriptHost", "RunComparison", "LifecycleLog", "Lifecycle", "EventStore", "JSON",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
      // No linker flags here: `make release` links the fully static binary (see the Makefile),
      // and a package with unsafeFlags cannot be used as a dependency.
    ),
    // Benchmarks and the log-writer child of the kill test; not part of the product.
    .executableTarget(name: "lifesim-bench", dependencies: ["LifecycleLog", "Lifecycle", "EventStore", "JSON", "LuaRuntime", "ScriptHost", "Explore"]),
    // libFuzzer entry point for the log reader (see docs/testing.md): builds as an empty program without the fuzzer flag.
    .executableTarget(name: "lifesim-fuzz-reader", dependencies: ["EventStore", "JSON"]),
    // libFuzzer entry point for loading and running app scripts.
    .executableTarget(name: "lifesim-fuzz-script", dependencies: ["ScriptHost", "EventStore"]),
    // Helpers the test targets share: one seeded generator, temporary paths.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "JSONTests", dependencies: ["JSON", "TestSupport"]),
    .testTarget(name: "EventStoreTests", dependencies: ["EventStore", "JSON", "TestSupport"]),
    .testTarget(name: "LifecycleTests", dependencies: ["Lifecycle", "LifecycleLog", "EventStore", "JSON", "TestSupport"]),
    .testTarget(name: "LifecycleLogTests", dependencies: ["LifecycleLog", "Lifecycle", "EventStore", "JSON", "TestSupport"]),
    .testTarget(name: "LuaRuntimeTests", dependencies: ["LuaRuntime", "TestSupport"]),
    .testTarget(name: "ScriptHostTests", dependencies: ["ScriptHost", "LuaRuntime", "LifecycleLog", "Lifecycle", "EventStore", "JSON", "TestSupport"], exclude: ["Hostile"]),
    .testTarget(name: "ExploreTests", dependencies: ["Explore", "ScriptHost", "LifecycleLog", "Lifecycle", "EventStore", "JSON", "TestSupport"], exclude: ["ExploreApps"]),
    .testTarget(name: "RunComparisonTests", dependencies: ["RunComparison", "ScriptHost", "LifecycleLog", "Lifecycle", "EventStore", "JSON", "TestSupport"]),
    // ScriptHost only to record the bundled scenarios' logs the renderers are tested over.
    .testTarget(name: "RenderTests", dependencies: ["Render", "RunComparison", "ScriptHost", "LifecycleLog", "Lifecycle", "EventStore", "JSON", "TestSupport"]),
    .testTarget(name: "SuiteTests", dependencies: ["Suite", "Render", "ScriptHost", "LifecycleLog", "Lifecycle", "EventStore", "JSON", "TestSupport"]),
    // The command line in process: the fast paths of run and replay against ArgumentParser's reading.
    .testTarget(name: "lifesimTests", dependencies: ["lifesim", "TestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
    .testTarget(name: "CLITests", dependencies: ["EventStore", "JSON", "Lifecycle", "TestSupport"], exclude: ["scripts", "Fixtures"]),
    .testTarget(name: "AppScanTests", dependencies: ["AppScan", "Suite", "Render", "JSON", "EventStore", "ScriptHost", "TestSupport"], exclude: ["Fixtures"]),
  ]
)
