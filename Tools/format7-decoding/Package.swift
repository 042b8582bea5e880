// swift-tools-version: 6.1
// Decodes the same events as format 6 and as format 7 (in progress), for counting the
// instructions each decoder takes (Tools/format7-decoding/README.md).
import PackageDescription

let package = Package(
    name: "format7-decoding",
    dependencies: [.package(name: "selectlog", path: "../..")],
    targets: [
        .executableTarget(
            name: "format7-decoding",
            dependencies: [
                .product(name: "SelectLog", package: "selectlog"),
                .product(name: "SelectLogStore", package: "selectlog"),
            ]
        ),
        .executableTarget(
            name: "format7-encoding",
            dependencies: [
                .product(name: "SelectLog", package: "selectlog"),
                .product(name: "SelectLogStore", package: "selectlog"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
