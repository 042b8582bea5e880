// swift-tools-version: 6.1
import PackageDescription

// libzstd is a system library: Linux has it (libzstd-dev), macOS with Homebrew's zstd,
// and the iOS, tvOS, watchOS and visionOS SDKs have none. Where CZstd is left out the
// store writes the same format with its checkpoints range-coded instead of zstd-compressed
// (batches are range-coded in every build).
// `SELECTLOG_WITHOUT_ZSTD=1 swift build` leaves it out on Linux too, exactly as an iOS
// build does, so that configuration is built and tested here (`make test`).
let withoutZstd = Context.environment["SELECTLOG_WITHOUT_ZSTD"].map { !$0.isEmpty && $0 != "0" } ?? false
// Debug builds check the engine's invariants after every event, and their `assert`s.
// `make test` runs the suite in a release build with `SELECTLOG_INTERNAL_CHECKS=1` in the
// environment: the libraries are optimised and check both, and the test targets are
// compiled unoptimised (in half the time, for a suite a fifth slower).
let internalChecks = Context.environment["SELECTLOG_INTERNAL_CHECKS"].map { !$0.isEmpty && $0 != "0" } ?? false
let checkedLibrarySettings: [SwiftSetting] = internalChecks ? [.unsafeFlags(["-assert-config", "Debug"])] : []
let testSettings: [SwiftSetting] = internalChecks ? [.unsafeFlags(["-Onone"])] : []
// `make test` leaves out the DocC plugin, which only `make docs` uses: every fresh scratch
// path compiles its two plugins (about 8 s of CPU each), and the suite's two builds are two.
let withoutDocCPlugin = Context.environment["SELECTLOG_WITHOUT_DOCC_PLUGIN"].map { !$0.isEmpty && $0 != "0" } ?? false
let zstdDependencies: [Target.Dependency] =
    withoutZstd ? [] : [.target(name: "CZstd", condition: .when(platforms: [.linux, .macOS]))]

let package = Package(
    name: "selectlog",
    // The core needs nothing newer; the store's recorder uses ContinuousClock.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "SelectLog", targets: ["SelectLog"]),
        .library(name: "SelectLogStore", targets: ["SelectLogStore"]),
        // UIKit forwarding code; empty where UIKit does not exist (Linux, macOS).
        .library(name: "SelectLogUIKit", targets: ["SelectLogUIKit"]),
        .executable(name: "selectlog", targets: ["selectlog"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ] + (withoutDocCPlugin ? [] : [
        // `swift package generate-documentation` for the DocC catalogs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ]),
    targets: [
        // The pure core: events, geometry, reducers, engine. Foundation at most.
        // Debug builds check the engine's invariants after every event (TableState+Invariants.swift),
        // and so does any build with SELECTLOG_INTERNAL_CHECKS=1 (`make test`'s release build).
        .target(
            name: "SelectLog",
            swiftSettings: [internalChecks ? .define("SELECTLOG_INTERNAL_CHECKS") : .define("SELECTLOG_INTERNAL_CHECKS", .when(configuration: .debug))]
                + checkedLibrarySettings
        ),
        // libzstd, as the system provides it.
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
        ),
        // The on-disk log. Depends on the core, never the other way round.
        // A prefetch for writing, which Swift has no spelling of (`AppendQueue`).
        .target(name: "CPrefetch"),
        // The engine lock's bias (`EngineLock`): a thread's identity, a compiler barrier and
        // `membarrier(2)`, which Swift has no spelling of.
        .target(name: "CBias"),
        .target(name: "SelectLogStore", dependencies: ["SelectLog", "CPrefetch", "CBias"] + zstdDependencies, swiftSettings: checkedLibrarySettings),
        // The integration guide's thin UIKit forwarding code (`#if canImport(UIKit)`).
        .target(name: "SelectLogUIKit", dependencies: ["SelectLog", "SelectLogStore"]),
        // The command line.
        .executableTarget(
            name: "selectlog",
            dependencies: [
                "SelectLog",
                "SelectLogStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The integration guide's code path, as a program: engine, recorder, bridges, diffs.
        .executableTarget(
            name: "EmbeddingExample",
            dependencies: ["SelectLog", "SelectLogStore"],
            path: "Examples/EmbeddingExample"
        ),
        .testTarget(name: "SelectLogStoreTests", dependencies: ["SelectLogStore", "SelectLog"], swiftSettings: testSettings),
    ] + (withoutZstd ? [] : [
        // The no-zstd configuration changes only the store, so only the store's tests are
        // built there (`make test-nozstd`); everything else is tested in the normal build.
        .testTarget(name: "SelectLogTests", dependencies: ["SelectLog"], swiftSettings: testSettings),
        .testTarget(name: "CLITests", dependencies: ["SelectLog", "SelectLogStore", "selectlog"], exclude: ["Golden"], swiftSettings: testSettings),
        // Written by `selectlog testgen`; CLITests regenerates it and checks it is unchanged.
        .testTarget(name: "GeneratedTests", dependencies: ["SelectLog"], swiftSettings: testSettings),
    ]),
    swiftLanguageModes: [.v6]
)
