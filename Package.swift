// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ObjDB",
    products: [
        .library(name: "ObjDB", targets: ["ObjDB"]),
        .library(name: "ObjDBSync", targets: ["ObjDBSync"]),
        .executable(name: "objdb-inspect", targets: ["objdb-inspect"]),
        .executable(name: "objdb-sync", targets: ["objdb-sync"]),
        .executable(name: "objdb-bench", targets: ["objdb-bench"]),
        .executable(name: "objdb-demo", targets: ["objdb-demo"]),
    ],
    targets: [
        // Debian's liblmdb-dev; only ObjDB's Storage layer and the raw-LMDB benchmark baseline import it.
        .systemLibrary(
            name: "CLMDB",
            path: "Sources/CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        // Debian's libsqlite3-dev: only the benchmark's baseline links it.
        .systemLibrary(
            name: "CSQLite",
            path: "Benchmarks/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The benchmark's baselines in C: raw LMDB and SQLite, called once per workload.
        .target(
            name: "CBaselines",
            dependencies: ["CLMDB", "CSQLite"],
            path: "Benchmarks/CBaselines",
            linkerSettings: [.linkedLibrary("lmdb"), .linkedLibrary("sqlite3")]
        ),
        .target(name: "ObjDB", dependencies: ["CLMDB"]),
        // The tools' view of a store (info, check, scans, export, import): a library above the core,
        // which cannot name it; it reaches the core's internals through `package` declarations. Not a
        // product: outside this package it would have no API.
        .target(name: "ObjDBInspection", dependencies: ["ObjDB"]),
        // Debian's libssl-dev: libcrypto's HMAC-SHA1 signs ObjDBSync's OAuth 1.0a requests.
        .systemLibrary(
            name: "CCrypto",
            path: "Sources/CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "ObjDBSync", dependencies: ["ObjDB", "CCrypto"]),
        // A minimal HTTP/1.1 server on 127.0.0.1 with fake Twitter and NYT APIs: ObjDBSync's tests
        // and the sync demo fetch from it. Not a product.
        .target(name: "LoopbackServer", dependencies: ["ObjDBSync"], path: "Tests/LoopbackServer"),

        // Debian's libedit-dev: the line editor of objdb-inspect's shell.
        .systemLibrary(
            name: "CEditLine",
            path: "Tools/CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // Debian's libmicrohttpd-dev: the HTTP server of objdb-inspect serve.
        .systemLibrary(
            name: "CMicroHTTPD",
            path: "Tools/CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .target(name: "ToolSupport", path: "Tools/ToolSupport"),
        .executableTarget(
            name: "objdb-inspect",
            dependencies: ["ObjDB", "ObjDBInspection", "ToolSupport", "CEditLine", "CMicroHTTPD"],
            path: "Tools/objdb-inspect",
            // The web inspector's pages, compiled into the binary.
            resources: [
                .embedInCode("Web/index.html"), .embedInCode("Web/inspector.css"), .embedInCode("Web/inspector.js"),
            ]
        ),
        // Runs a child and reports its own peak memory (a tiny process, so none is inherited).
        .executableTarget(name: "objdb-child-rusage", path: "Tools/objdb-child-rusage"),
        .executableTarget(
            name: "objdb-sync",
            dependencies: ["ObjDB", "ObjDBSync", "ToolSupport"],
            path: "Tools/objdb-sync"
        ),
        .executableTarget(
            name: "objdb-bench",
            dependencies: ["ObjDB", "ObjDBInspection", "ObjDBSync", "CBaselines", "ToolSupport"],
            path: "Benchmarks/objdb-bench"
        ),
        .executableTarget(
            name: "objdb-demo",
            dependencies: ["ObjDB"],
            path: "Examples/objdb-demo"
        ),
        // `make demo`: fetches timelines and a search from a loopback server into a fresh store.
        .executableTarget(
            name: "objdb-sync-demo",
            dependencies: ["ObjDB", "ObjDBSync", "LoopbackServer"],
            path: "Examples/objdb-sync-demo"
        ),

        // A child process for tests that need a second process on the same store.
        .executableTarget(
            name: "objdb-test-child",
            dependencies: ["ObjDB", "ObjDBInspection", "CLMDB"],
            path: "Tests/TestChild"
        ),
        // Helpers every test target shares: temporary directories, running the built tools.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Counts the test process's heap allocations per thread (Format's allocation tests).
        .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
        .testTarget(
            name: "ObjDBTests",
            dependencies: [
                "ObjDB", "ObjDBInspection", "ObjDBSync", "CLMDB", "TestSupport", "objdb-test-child", "objdb-inspect",
                "AllocationCounter",
            ]),
        .testTarget(
            name: "ObjDBSyncTests",
            dependencies: ["ObjDB", "ObjDBSync", "TestSupport", "LoopbackServer", "objdb-sync", "objdb-sync-demo"]),
        .testTarget(
            name: "ToolsTests",
            dependencies: [
                "ObjDB", "ObjDBInspection", "ToolSupport", "TestSupport", "objdb-inspect", "objdb-sync", "objdb-bench",
                "objdb-demo", "objdb-test-child", "objdb-child-rusage", "CBaselines",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
