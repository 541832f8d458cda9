// swift-tools-version: 6.1
import PackageDescription

// Layers, inner to outer. Dependencies only ever point inward:
//   LigasDomain        entities, loader ports and the cache use cases (no I/O libraries)
//   LigasRemote        HTTP remote source: endpoint tables + payload mappers per data source
//   LigasCacheStore    SQLite (GRDB) implementation of the domain's cache stores
//   LigasComposition   fallback / caching / validation / single-flight, and the engine facade
//   ligas-demo         executable: the engine on the bundled sample data
let package = Package(
    name: "ligasd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "ligas-demo", targets: ["ligas-demo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "LigasDomain"),
        .target(
            name: "LigasRemote",
            dependencies: [
                "LigasDomain",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ]
        ),
        .target(
            name: "LigasCacheStore",
            dependencies: ["LigasDomain", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "LigasComposition",
            dependencies: [
                "LigasDomain", "LigasRemote", "LigasCacheStore",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "LigasSampleData", resources: [.copy("SampleData")]),
        .executableTarget(
            name: "ligas-demo",
            dependencies: [
                "LigasComposition", "LigasSampleData",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // A real HTTP server on loopback (SwiftNIO) for the remote and acceptance tests.
        .target(
            name: "LigasTestSupport",
            dependencies: [
                "LigasDomain",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/LigasTestSupport"
        ),
        .testTarget(name: "LigasDomainTests", dependencies: ["LigasDomain", "LigasTestSupport"]),
        .testTarget(name: "LigasRemoteTests", dependencies: ["LigasRemote", "LigasTestSupport"]),
        .testTarget(name: "LigasCacheStoreTests", dependencies: ["LigasCacheStore", "LigasTestSupport"]),
        .testTarget(
            name: "LigasCompositionTests",
            dependencies: ["LigasComposition", "LigasSampleData", "LigasTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
