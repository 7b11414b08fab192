// swift-tools-version:6.0
import PackageDescription

// Dependency arrows (see docs/architecture.md), none pointing up:
//   lifesim → ScriptHost → Lifecycle → EventStore → CLibCrypto;  ScriptHost → CLua
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
    .target(
      name: "EventStore",
      dependencies: ["CLibCrypto"],
      // The static archive: only SHA-256's objects are linked in, and nothing is loaded at
      // start-up (the shared libcrypto added about 1 ms to every lifesim command).
      linkerSettings: [.linkedLibrary(":libcrypto.a", .when(platforms: [.linux]))]
    ),
    .target(name: "Lifecycle", dependencies: ["EventStore"]),
    .target(name: "ScriptHost", dependencies: ["Lifecycle", "EventStore", "CLua"]),
    // Comparing runs: replay's re-run against its recording, the event diff, the outcomes.
    .target(name: "RunComparison", dependencies: ["EventStore", "Lifecycle"]),
    // `lifesim test`: discovery, the iOS matrix, parallel cases and their reports.
    .target(name: "Suite", dependencies: ["ScriptHost", "Lifecycle", "EventStore"]),
    // `lifesim scan`: reads a Swift app's delegates and Info.plist, reports its lifecycle risks.
    .target(name: "AppScan", dependencies: [
      "Lifecycle", "EventStore", "ScriptHost",
      .product(name: "SwiftSyntax", package: "swift-syntax"), .product(name: "SwiftParser", package: "swift-syntax"),
    ]),
    .executableTarget(
      name: "lifesim",
      dependencies: [
        "AppScan", "Suite", "ScriptHost", "RunComparison", "Lifecycle", "EventStore",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
      // No linker flags here: `make release` links the fully static binary (see the Makefile),
      // and a package with unsafeFlags cannot be used as a dependency.
    ),
    // Benchmarks and the log-writer child of the kill test; not part of the product.
    .executableTarget(name: "lifesim-bench", dependencies: ["Lifecycle", "EventStore", "ScriptHost"]),
    // libFuzzer entry point for the log reader (see docs/testing.md): builds as an empty program without the fuzzer flag.
    .executableTarget(name: "lifesim-fuzz-reader", dependencies: ["EventStore"]),
    // libFuzzer entry point for loading and running app scripts.
    .executableTarget(name: "lifesim-fuzz-script", dependencies: ["ScriptHost"]),
    // Helpers the test targets share: one seeded generator, temporary paths.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "EventStoreTests", dependencies: ["EventStore", "TestSupport"]),
    .testTarget(name: "LifecycleTests", dependencies: ["Lifecycle", "EventStore", "TestSupport"]),
    .testTarget(name: "ScriptHostTests", dependencies: ["ScriptHost", "Lifecycle", "EventStore", "TestSupport"], exclude: ["Hostile", "ExploreApps"]),
    .testTarget(name: "RunComparisonTests", dependencies: ["RunComparison", "Lifecycle", "EventStore", "TestSupport"]),
    .testTarget(name: "AppScanTests", dependencies: ["AppScan", "EventStore", "ScriptHost", "TestSupport"], exclude: ["Fixtures"]),
    .testTarget(name: "CLITests", dependencies: ["EventStore", "TestSupport"], exclude: ["scripts", "Fixtures"]),
  ]
)
