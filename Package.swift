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
            name: "Recorder", dependencies: ["HTTP", "Transport", "Corpus", "Capture", "KizunaWire", "PowerSyncWire", "CEpoll", "CLinux"],
            swiftSettings: strict),
        .target(name: "KizunaWire", swiftSettings: strict),
        .target(name: "PowerSyncWire", dependencies: ["KizunaWire"], swiftSettings: strict),
        .target(name: "AccordVersion", swiftSettings: strict, plugins: ["BuildStamp"]),
        .plugin(name: "BuildStamp", capability: .buildTool()),
        .target(name: "HTTP", dependencies: ["COpenSSL", "CLinux", "KizunaWire"], swiftSettings: strict),
        .target(name: "Serve", dependencies: ["HTTP", "ServerContract", "KizunaWire"], swiftSettings: strict),
        .target(name: "Corpus", dependencies: ["KizunaWire", "PowerSyncWire", "COpenSSL"], swiftSettings: strict),
        .target(name: "Capture", dependencies: ["Corpus", "KizunaWire", "PowerSyncWire", "CLinux"], swiftSettings: strict),
        .target(name: "Checks", dependencies: ["KizunaWire", "PowerSyncWire", "Corpus"], swiftSettings: strict),
        .target(name: "AccordDriver", dependencies: ["KizunaWire", "Corpus"], swiftSettings: strict),
        .target(name: "ServerContract", dependencies: ["KizunaWire", "Corpus"], swiftSettings: strict),
        .target(name: "Reports", dependencies: ["Checks", "KizunaWire", "CLibXML2"], swiftSettings: strict),
        .target(name: "SQLite", dependencies: ["CSQLite"], swiftSettings: strict),
        .target(name: "ReferenceServer", dependencies: ["KizunaWire", "Corpus", "ServerContract", "SQLite"], swiftSettings: strict),
        .target(
            name: "ReferencePowerSync", dependencies: ["KizunaWire", "PowerSyncWire", "Corpus", "ServerContract", "SQLite", "HTTP"],
            swiftSettings: strict),
        .target(
            name: "PostgresTarget", dependencies: ["KizunaWire", "Corpus", "Capture", "ServerContract", "CPostgres"], swiftSettings: strict),
        .target(
            name: "ReferenceClient", dependencies: ["KizunaWire", "Corpus", "SQLite", "Transport"], swiftSettings: strict),
        .target(
            name: "ReferencePowerSyncClient", dependencies: ["KizunaWire", "PowerSyncWire", "Corpus", "SQLite", "Transport"],
            swiftSettings: strict),
        .target(
            name: "ReferenceDriver",
            dependencies: ["ReferenceClient", "ReferencePowerSyncClient", "AccordDriver", "KizunaWire", "Corpus"], swiftSettings: strict),
        .target(
            name: "HTTPTargets", dependencies: ["Corpus", "HTTP", "KizunaWire", "PowerSyncWire", "ServerContract", "Transport"],
            swiftSettings: strict),
        .target(
            name: "Harness",
            dependencies: ["KizunaWire", "PowerSyncWire", "Corpus", "Capture", "Checks", "Reports", "AccordVersion", "CLinux"],
            swiftSettings: strict),
        .target(
            name: "Lanes",
            dependencies: [
                "Harness", "KizunaWire", "PowerSyncWire", "Corpus", "Capture", "Checks", "Reports", "ServerContract", "HTTP",
                "AccordDriver",
                "AccordVersion", "CLinux",
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "accord",
            dependencies: [
                "Harness", "Lanes", "ReferenceServer", "ReferencePowerSync", "HTTPTargets", "ServerContract", "HTTP", "Serve",
                "ReferenceClient",
                "ReferenceDriver", "ReferencePowerSyncClient",
                "AccordDriver",
                "Recorder", "PostgresTarget", "Checks", "Reports", "Corpus", "Capture", "KizunaWire", "AccordVersion",
            ],
            swiftSettings: strict),
        .target(
            name: "AccordTestSupport",
            dependencies: ["KizunaWire", "ServerContract", "Harness", "Lanes", "AccordDriver", "ReferenceClient"],
            path: "Tests/AccordTestSupport",
            swiftSettings: strict),
        .testTarget(name: "TransportTests", dependencies: ["Transport", "AccordTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "PostgresTargetTests", dependencies: ["PostgresTarget", "ServerContract", "KizunaWire"], swiftSettings: strict),
        .testTarget(
            name: "RecorderTests",
            dependencies: [
                "Recorder", "HTTP", "Corpus", "Capture", "KizunaWire", "PowerSyncWire", "CLinux", "AccordTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(name: "KizunaWireTests", dependencies: ["KizunaWire", "AccordTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "ReferencePowerSyncTests", dependencies: ["ReferencePowerSync", "PowerSyncWire", "Corpus", "KizunaWire", "SQLite"],
            swiftSettings: strict),
        .testTarget(name: "PowerSyncWireTests", dependencies: ["PowerSyncWire", "KizunaWire"], swiftSettings: strict),
        .testTarget(
            name: "ReferencePowerSyncClientTests",
            dependencies: ["ReferencePowerSyncClient", "PowerSyncWire", "KizunaWire", "HTTP", "Corpus"], swiftSettings: strict),
        .testTarget(name: "CorpusTests", dependencies: ["Corpus", "Capture", "KizunaWire"], swiftSettings: strict),
        .testTarget(name: "ChecksTests", dependencies: ["Checks", "Corpus", "KizunaWire"], swiftSettings: strict),
        .testTarget(
            name: "ReportsTests", dependencies: ["Reports", "Checks", "KizunaWire"], swiftSettings: strict),
        .testTarget(
            name: "ReferenceServerTests", dependencies: ["ReferenceServer", "ServerContract", "Corpus", "KizunaWire", "Lanes", "Reports"],
            swiftSettings: strict),
        .testTarget(
            name: "RunnerTests",
            dependencies: [
                "Harness", "Lanes", "ServerContract", "ReferenceServer", "AccordDriver", "Corpus", "KizunaWire", "Transport", "Reports",
                "HTTP",
                "AccordTestSupport", "Checks", "ReferenceClient", "ReferencePowerSync", "ReferencePowerSyncClient",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HTTPTests", dependencies: ["HTTP", "Serve", "ServerContract", "Corpus", "KizunaWire", "AccordTestSupport"],
            swiftSettings: strict),
        .testTarget(name: "AccordDriverTests", dependencies: ["AccordDriver", "KizunaWire", "Corpus"], swiftSettings: strict),
        .testTarget(
            name: "ReferenceClientTests",
            dependencies: [
                "ReferenceClient", "ReferenceDriver", "KizunaWire", "Corpus", "AccordDriver", "AccordTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "AccordEndToEndTests",
            dependencies: [
                "Harness", "Lanes", "KizunaWire", "Reports", "AccordDriver", "HTTP", "Corpus", "ServerContract", "ReferenceServer",
                "AccordTestSupport", "Serve", "Checks", "HTTPTargets",
            ],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
