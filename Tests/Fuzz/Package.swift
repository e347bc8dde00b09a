// swift-tools-version:5.4
// Coverage-guided fuzz targets for typewrite (libFuzzer with AddressSanitizer, from the toolchain).
// A package of its own, so the main package keeps no dependencies and `swift test` never builds
// these. Build and run them with `Tests/Fuzz/run.sh SECONDS` (see the README there).
//
// Tools version 5.4 on purpose: from 5.5 on SwiftPM renames an executable's `main` on Linux, and
// the link with libFuzzer (which brings its own `main`) fails. Each target defines
// `LLVMFuzzerTestOneInput` with `@_cdecl` and is compiled with `-parse-as-library`.
import PackageDescription

/// One executable per parser or stage; `Sources/fuzz-NAME/` holds its entry point. A new stream
/// decoder is one more name here and a five-line file calling `FuzzSupport.fuzzDecoder`.
let fuzzTargets = ["tokenizer", "sse", "ndjson", "renderer", "snapshots", "graphemes"]

let package = Package(
    name: "TypewriteFuzz",
    dependencies: [.package(name: "typewrite", path: "../..")],
    targets: [
        // Sources/FuzzSupport/TerminalJudge links to the main package's Tests/TerminalJudge, so the
        // renderer target judges with the very VirtualTerminal.swift that `swift test` uses (a
        // package's targets cannot name a path outside it, and the main package's test support is
        // in no product). TYPEWRITE_FUZZ makes that file import TypewriteCore with @testable.
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "TypewriteCore", package: "typewrite")],
            path: "Sources/FuzzSupport",
            swiftSettings: [.define("TYPEWRITE_FUZZ")]
        ),
    ] + fuzzTargets.map { name in
        .executableTarget(
            name: "fuzz-\(name)",
            dependencies: ["FuzzSupport", .product(name: "TypewriteCore", package: "typewrite")],
            path: "Sources/fuzz-\(name)",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    }
)
