// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .unsafeFlags(["-warnings-as-errors"])
]

let package = Package(
    name: "Accord",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "accord", targets: ["accord"]),
        .library(name: "JSON", targets: ["JSON"]),
        .library(name: "KizunaWire", targets: ["KizunaWire"]),
        .library(name: "PowerSyncWire", targets: ["PowerSyncWire"]),
        .library(name: "Transport", targets: ["Transport"]),
        .library(name: "Corpus", targets: ["Corpus"]),
        .library(name: "Capture", targets: ["Capture"]),
        .library(name: "Checks", targets: ["Checks"]),
        .library(name: "Reports", targets: ["Reports"]),
        .library(name: "ServerContract", targets: ["ServerContract"]),
        .library(name: "Harness", targets: ["Harness"]),
        .library(name: "Lanes", targets: ["Lanes"]),
        .library(name: "Explore", targets: ["Explore"]),
        .library(name: "ReferenceServer", targets: ["ReferenceServer"]),
        .library(name: "ReferencePowerSync", targets: ["ReferencePowerSync"]),
        .library(name: "HTTP", targets: ["HTTP"]),
        .library(name: "Serve", targets: ["Serve"]),
        .library(name: "AccordDriver", targets: ["AccordDriver"]),
        .library(name: "ReferenceClient", targets: ["ReferenceClient"]),
        .library(name: "ReferenceDriver", targets: ["ReferenceDriver"]),
        .library(name: "Recorder", targets: ["Recorder"]),
        .library(name: "PostgresTarget", targets: ["PostgresTarget"]),
        .library(name: "HTTPTargets", targets: ["HTTPTargets"]),
        .library(name: "SQLite", targets: ["SQLite"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(
            name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]),
        .systemLibrary(
            name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CPostgres", path: "Sources/CPostgres", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        .target(name: "Transport", dependencies: ["CCurl", "COpenSSL"], swiftSettings: strict),
        .target(
            name: "Recorder",
            dependencies: ["HTTP", "Transport", "Corpus", "Capture", "JSON", "KizunaWire", "PowerSyncWire", "CEpoll", "CLinux"],
            swiftSettings: strict),
        .target(name: "JSON", swiftSettings: strict),
        .target(name: "KizunaWire", dependencies: ["JSON"], swiftSettings: strict),
        .target(name: "PowerSyncWire", dependencies: ["JSON"], swiftSettings: strict),
        .target(name: "AccordVersion", swiftSettings: strict, plugins: ["BuildStamp"]),
        .plugin(name: "BuildStamp", capability: .buildTool()),
        .target(name: "HTTP", dependencies: ["COpenSSL", "CLinux", "JSON", "KizunaWire"], swiftSettings: strict),
        .target(name: "Serve", dependencies: ["HTTP", "ServerContract", "JSON", "KizunaWire"], swiftSettings: strict),
        .target(name: "Corpus", dependencies: ["JSON", "KizunaWire", "PowerSyncWire", "COpenSSL"], swiftSettings: strict),
        .target(name: "Capture", dependencies: ["Corpus", "JSON", "KizunaWire", "PowerSyncWire", "CLinux"], swiftSettings: strict),
        .target(name: "Checks", dependencies: ["JSON", "KizunaWire", "PowerSyncWire", "Corpus"], swiftSettings: strict),
        .target(name: "AccordDriver", dependencies: ["JSON", "KizunaWire", "Corpus", "PowerSyncWire"], swiftSettings: strict),
        .target(name: "ServerContract", dependencies: ["JSON", "KizunaWire", "Corpus", "PowerSyncWire"], swiftSettings: strict),
        .target(name: "Reports", dependencies: ["Checks", "JSON", "KizunaWire", "CLibXML2"], swiftSettings: strict),
        .target(name: "SQLite", dependencies: ["CSQLite"], swiftSettings: strict),
        .target(
            name: "ReferenceServer", dependencies: ["JSON", "KizunaWire", "Corpus", "ServerContract", "SQLite"], swiftSettings: strict),
        .target(
            name: "ReferencePowerSync",
            dependencies: ["JSON", "KizunaWire", "PowerSyncWire", "Corpus", "ServerContract", "SQLite", "HTTP"],
            swiftSettings: strict),
        .target(
            name: "PostgresTarget", dependencies: ["JSON", "KizunaWire", "Corpus", "Capture", "ServerContract", "CPostgres"],
            swiftSettings: strict),
        .target(
            name: "ReferenceClient", dependencies: ["JSON", "KizunaWire", "Corpus", "SQLite", "Transport"], swiftSettings: strict),
        .target(
            name: "ReferencePowerSyncClient", dependencies: ["JSON", "KizunaWire", "PowerSyncWire", "Corpus", "SQLite", "Transport"],
            swiftSettings: strict),
        .target(
            name: "ReferenceDriver",
            dependencies: ["ReferenceClient", "ReferencePowerSyncClient", "AccordDriver", "JSON", "KizunaWire", "Corpus", "PowerSyncWire"],
            swiftSettings: strict),
        .target(
            name: "HTTPTargets", dependencies: ["Corpus", "HTTP", "JSON", "KizunaWire", "PowerSyncWire", "ServerContract", "Transport"],
            swiftSettings: strict),
        .target(
            name: "Harness",
            dependencies: ["JSON", "KizunaWire", "PowerSyncWire", "Corpus", "Capture", "Checks", "Reports", "AccordVersion", "CLinux"],
            swiftSettings: strict),
        .target(name: "Explore", dependencies: ["JSON", "KizunaWire", "Corpus", "ServerContract", "AccordDriver"], swiftSettings: strict),
        .target(
            name: "Lanes",
            dependencies: [
                "Harness", "JSON", "KizunaWire", "PowerSyncWire", "Corpus", "Capture", "Checks", "Reports", "ServerContract", "HTTP",
                "AccordDriver", "Explore",
                "AccordVersion", "CLinux",
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "accord",
            dependencies: [
                "Harness", "Lanes", "Explore", "ReferenceServer", "ReferencePowerSync", "HTTPTargets", "ServerContract", "HTTP", "Serve",
                "ReferenceClient",
                "ReferenceDriver", "ReferencePowerSyncClient",
                "AccordDriver",
                "Recorder", "PostgresTarget", "Checks", "Reports", "Corpus", "Capture", "JSON", "AccordVersion", "KizunaWire",
                "PowerSyncWire",
            ],
            swiftSettings: strict),
        .target(
            name: "AccordTestSupport",
            dependencies: ["JSON", "KizunaWire", "Corpus", "ServerContract", "Harness", "Lanes", "AccordDriver", "ReferenceClient"],
            path: "Tests/AccordTestSupport",
            swiftSettings: strict),
        .testTarget(name: "TransportTests", dependencies: ["Transport", "AccordTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "PostgresTargetTests", dependencies: ["PostgresTarget", "ServerContract", "JSON"], swiftSettings: strict),
        .testTarget(
            name: "RecorderTests",
            dependencies: [
                "Recorder", "HTTP", "Corpus", "Capture", "JSON", "KizunaWire", "PowerSyncWire", "CLinux", "AccordTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(name: "KizunaWireTests", dependencies: ["JSON", "KizunaWire", "AccordTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "ReferencePowerSyncTests", dependencies: ["ReferencePowerSync", "PowerSyncWire", "Corpus", "JSON", "SQLite"],
            swiftSettings: strict),
        .testTarget(name: "PowerSyncWireTests", dependencies: ["PowerSyncWire", "JSON"], swiftSettings: strict),
        .testTarget(
            name: "ReferencePowerSyncClientTests",
            dependencies: ["ReferencePowerSyncClient", "PowerSyncWire", "JSON", "HTTP", "Corpus"], swiftSettings: strict),
        .testTarget(
            name: "CorpusTests", dependencies: ["Corpus", "Capture", "JSON", "KizunaWire", "PowerSyncWire"], swiftSettings: strict),
        .testTarget(name: "ChecksTests", dependencies: ["Checks", "Corpus", "JSON", "KizunaWire", "PowerSyncWire"], swiftSettings: strict),
        .testTarget(
            name: "ReportsTests", dependencies: ["Reports", "Checks", "JSON"], swiftSettings: strict),
        .testTarget(
            name: "ReferenceServerTests",
            dependencies: ["ReferenceServer", "ServerContract", "Corpus", "JSON", "KizunaWire", "Lanes", "Reports"],
            swiftSettings: strict),
        .testTarget(
            name: "LanesTests",
            dependencies: [
                "Harness", "Lanes", "ServerContract", "ReferenceServer", "AccordDriver", "Corpus", "JSON", "KizunaWire", "Transport",
                "Reports",
                "HTTP",
                "AccordTestSupport", "Checks", "ReferenceClient", "ReferenceDriver", "ReferencePowerSync", "ReferencePowerSyncClient",
                "PowerSyncWire",
                "Explore",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HTTPTests", dependencies: ["HTTP", "Serve", "ServerContract", "Corpus", "JSON", "KizunaWire", "AccordTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "AccordDriverTests", dependencies: ["AccordDriver", "JSON", "KizunaWire", "Corpus", "PowerSyncWire"],
            swiftSettings: strict),
        .testTarget(
            name: "ReferenceClientTests",
            dependencies: [
                "ReferenceClient", "ReferenceDriver", "JSON", "KizunaWire", "Corpus", "AccordDriver", "AccordTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "AccordEndToEndTests",
            dependencies: [
                "Harness", "Lanes", "JSON", "KizunaWire", "Reports", "AccordDriver", "HTTP", "Corpus", "ServerContract", "ReferenceServer",
                "AccordTestSupport", "Serve", "Checks", "HTTPTargets", "ReferencePowerSync", "PowerSyncWire",
            ],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
