// swift-tools-version: 6.1
// The benchmark suite lives in its own package (as swift-collections and swift-nio do),
// so that building and testing the root package stays fast.
import PackageDescription

let package = Package(
    name: "selectlog-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "selectlog", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "CoreBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "SelectLog", package: "selectlog"),
            ],
            path: "Benchmarks/CoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "SelectLog", package: "selectlog"),
                .product(name: "SelectLogStore", package: "selectlog"),
            ],
            path: "Benchmarks/StoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
