// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "selectlog",
    // The core needs nothing newer; the store's recorder uses ContinuousClock.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "SelectLog", targets: ["SelectLog"]),
        .library(name: "SelectLogStore", targets: ["SelectLogStore"]),
        .executable(name: "selectlog", targets: ["selectlog"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        // The pure core: events, geometry, reducers, engine. Foundation at most.
        // Debug builds check the engine's invariants after every event (TableState+Invariants.swift).
        .target(name: "SelectLog", swiftSettings: [.define("SELECTLOG_INTERNAL_CHECKS", .when(configuration: .debug))]),
        // libzstd, as the system provides it.
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        // The on-disk log. Depends on the core, never the other way round.
        .target(name: "SelectLogStore", dependencies: ["SelectLog", "CZstd"]),
        // The command line.
        .executableTarget(
            name: "selectlog",
            dependencies: [
                "SelectLog",
                "SelectLogStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "SelectLogTests", dependencies: ["SelectLog"]),
        .testTarget(name: "SelectLogStoreTests", dependencies: ["SelectLogStore", "SelectLog"]),
        .testTarget(name: "CLITests", dependencies: ["SelectLog", "SelectLogStore", "selectlog"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
