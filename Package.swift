// swift-tools-version: 6.1
import PackageDescription

// Layers, inner to outer. Dependencies only ever point inward:
//   LigasDomain        entities, loader ports and the cache use cases (no I/O libraries)
//   LigasRemote        HTTP remote source: endpoint tables + payload mappers per data source
//   LigasCacheStore    SQLite implementation of the domain's cache stores (its C API, through CSQLite)
//   LigasComposition   fallback / caching / validation / single-flight, and the engine facade
//   LigasSystemd       systemd glue: journald log handler, sd_notify, socket activation fds
// Sources/ holds only what ships. Beside it: Benchmarks/ (ligas-bench, ligas-protocol-bench),
// IntegrationTests/ (ligas-stress, the reliability suite) and Examples/ (ligas-demo, the engine
// alone on the bundled sample data); none of them is installed.
// How the shipped binaries are linked in release: with lld, which packs their relative relocations
// (DT_RELR: a few KiB the loader walks at start instead of ~2 MB of RELA entries), and without
// exporting every Swift symbol (the static stdlib's link arguments say --export-dynamic: ~3 MB
// of .dynsym/.dynstr nobody looks up). glibc 2.36 (Debian 12) or later runs them.
let shippedBinaryLinking: [LinkerSetting] = [
    .unsafeFlags(
        ["-use-ld=lld", "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
        .when(configuration: .release)),
]

// ligasd's code that start-up and first requests run, first and together (Sources/ligasd/ligasd.order,
// written by scripts/order-symbols; scripts/lib/release-build.sh says why and gives each function
// a section of its own, so that the order reaches inside every module), and next to it the private
// functions, which have no name to order by (Sources/ligasd/ligasd.lds).
let ligasdLinking = shippedBinaryLinking + [
    .unsafeFlags(
        ["-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/ligasd/ligasd.order",
         "-Xlinker", "--no-warn-symbol-ordering",
         "-Xlinker", "-T", "-Xlinker", "\(Context.packageDirectory)/Sources/ligasd/ligasd.lds"],
        .when(configuration: .release)),
]

// The daemon's generic modules are compiled with cross-module optimization in release, so that
// their generic code (the engine's loaders, the router's routes) is specialized where ligasd uses
// it, instead of looking up generic metadata on every request (callgrind: 47.4k -> 37.5k
// instructions per cached answer). Not LigasProtocol nor LigasClient: other packages may use them.
let serverCrossModule: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
    name: "ligasd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "ligasd", targets: ["ligasd"]),
        .executable(name: "ligas-client", targets: ["ligas-client"]),
        .executable(name: "ligas-demo", targets: ["ligas-demo"]),
        .library(name: "LigasClient", targets: ["LigasClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .target(name: "LigasDomain", swiftSettings: serverCrossModule),
        .target(
            name: "LigasRemote",
            dependencies: [
                "LigasDomain",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                // NIOConnectionError, HTTPParserError: to word failures plainly (RemoteFailure)
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // Data from a ByteBuffer without Foundation (NIOFoundationCompat would link it, and ICU)
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
            ]
        ),
        // The system's libsqlite3, as a C module.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(
            name: "LigasCacheStore",
            dependencies: [
                "LigasDomain", "CSQLite",
                // SHA-256 of each image, once, when it is cached (streams then send it as it is)
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "LigasComposition",
            dependencies: [
                "LigasDomain", "LigasRemote", "LigasCacheStore",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: serverCrossModule
        ),
        // The bundled sample data: files that SwiftPM copies beside the executables it builds
        // (ligasd_LigasSampleData.resources/). A C target, because a Swift target with resources gets
        // an accessor that links Foundation's Bundle, and with it all of Foundation and ICU.
        .target(name: "LigasSampleData", resources: [.copy("SampleData")]),
        // Where that data is, for the daemon, the tests and the tools.
        .target(name: "LigasSampleDataLocation", dependencies: ["LigasSampleData"]),

        // systemd glue: libsystemd through a system library target.
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .target(
            name: "LigasSystemd",
            dependencies: ["CSystemd", .product(name: "Logging", package: "swift-log")]
        ),

        // The wire protocol (hand-written CBOR + framing), shared by daemon and client.
        .target(name: "LigasProtocol"),
        .executableTarget(name: "ligas-protocol-bench", dependencies: ["LigasProtocol"], path: "Benchmarks/ligas-protocol-bench"),

        // The daemon: a Dispatch-sources server, the engine behind it, and the executable.
        // <sys/epoll.h>, which Swift's Glibc module leaves out: for the server's EventLoop and the
        // client's ReaderThread.
        .systemLibrary(name: "CEpoll"),
        .target(
            name: "LigasServer",
            dependencies: [
                "LigasProtocol", "CEpoll",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: serverCrossModule
        ),
        .target(
            name: "LigasDaemon",
            dependencies: [
                "LigasServer", "LigasComposition", "LigasProtocol", "LigasSystemd", "LigasSampleDataLocation", "CMalloc", "CAuxv",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // glibc's <malloc.h> (mallopt, malloc_trim), which Swift's Glibc module leaves out: for
        // ligasd's MallocTuning, and the daemon's QuietMemoryRelease.
        .systemLibrary(name: "CMalloc"),
        // glibc's <sys/auxv.h> and <elf.h> (the executable's program headers), likewise: for IdleCodePages.
        .systemLibrary(name: "CAuxv"),
        .executableTarget(
            name: "ligasd",
            dependencies: ["LigasDaemon", "CMalloc", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            exclude: ["ligasd.order", "ligasd.lds"],
            linkerSettings: ligasdLinking
        ),

        // The thin client: the protocol and nothing of the data layers; the system's OpenSSL for
        // the SHA-256 of streams (swift-crypto's Crypto module keeps every algorithm it has),
        // loaded when a stream is first checked (LibCrypto), not linked.
        .target(
            name: "LigasClient",
            dependencies: ["LigasProtocol", "CEpoll"]
        ),
        .executableTarget(
            name: "ligas-client",
            dependencies: ["LigasClient", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            linkerSettings: shippedBinaryLinking
        ),

        // Not installed: the benchmark and the reliability suite drive a real ligasd over a real
        // socket; they reuse the loopback HTTP server and process helpers of the test support.
        .executableTarget(
            name: "ligas-bench",
            dependencies: [
                "LigasClient", "LigasProtocol", "LigasSampleDataLocation", "LigasTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/ligas-bench"),
        .executableTarget(
            name: "ligas-stress", dependencies: ["LigasClient", "LigasProtocol", "LigasTestSupport"],
            path: "IntegrationTests/ligas-stress"),

        .executableTarget(
            name: "ligas-demo",
            dependencies: [
                "LigasComposition", "LigasSampleDataLocation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/ligas-demo"
        ),

        // A real HTTP server on loopback (SwiftNIO) for the remote and acceptance tests; SQLite's C API
        // to make the cache files the store never makes itself (`BadCacheFiles`).
        .target(
            name: "LigasTestSupport",
            dependencies: [
                "LigasDomain", "LigasCacheStore", "CSQLite",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/LigasTestSupport"
        ),
        .testTarget(name: "LigasDomainTests", dependencies: ["LigasDomain", "LigasTestSupport"]),
        .testTarget(name: "LigasRemoteTests", dependencies: ["LigasRemote", "LigasTestSupport"]),
        .testTarget(
            name: "LigasCacheStoreTests",
            dependencies: [
                "LigasCacheStore", "LigasTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // LigasServer: the golden vectors of the error bodies the server builds (ErrorBody+Promises).
        .testTarget(name: "LigasProtocolTests", dependencies: ["LigasProtocol", "LigasServer", "LigasTestSupport"]),
        .testTarget(
            name: "LigasServerTests",
            dependencies: [
                "LigasServer", "LigasProtocol", "LigasClient", "LigasTestSupport", .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "LigasSystemdTests", dependencies: ["LigasSystemd", "LigasTestSupport"]),
        // ligasd's settings in process (the declaration, precedence, the config file, README's table),
        // and the daemon's other in-process parts (the wire forms of cached lists).
        .testTarget(name: "LigasDaemonSettingsTests", dependencies: ["LigasDaemon", "LigasTestSupport"]),
        // End to end: the real ligasd and ligas-client binaries, real sockets, real systemd tools.
        .testTarget(
            name: "LigasDaemonTests",
            dependencies: ["LigasClient", "LigasProtocol", "LigasSampleDataLocation", "LigasTestSupport"]
        ),
        .testTarget(
            name: "LigasCompositionTests",
            dependencies: ["LigasComposition", "LigasSampleDataLocation", "LigasTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
