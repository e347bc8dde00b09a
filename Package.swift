// swift-tools-version:6.0
// typewrite: a Unix pipe filter that types its input onto the terminal with a soft fade.
// No package dependencies: only the toolchain (stdlib, Foundation, Dispatch, Glibc/Darwin, Testing).
import PackageDescription

// Startup cost (case 2 of Scripts/bench/bench.py), `echo hi | typewrite` against `echo hi | cat`,
// measured here: Foundation linked dynamically 3.6x; Swift runtime and Foundation static
// (-static-stdlib) 2.4x, most of it the dynamic loader binding libstdc++; a fully static executable
// 1.4x. Release builds on Linux only, so `swift build -c release` gives what the README installs;
// debug builds and tests link dynamically. The flags sit on the executable target alone: SwiftPM
// refuses a package as a versioned dependency when a target its library product builds has unsafe
// flags, and measured with Swift 6.3.1 the executable still links fully static with them there.
// lld, from the toolchain, links it without gold's warnings about getpwuid in static glibc, which
// typewrite never calls.
let staticStdlib: [SwiftSetting] = [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]

let package = Package(
    name: "typewrite",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "typewrite", targets: ["typewrite"]),
        .library(name: "TypewriteCore", targets: ["TypewriteCore"]),
    ],
    targets: [
        .target(name: "TypewriteCore"),
        .target(name: "TypewriteCLI", dependencies: ["TypewriteCore"]),
        .executableTarget(
            name: "typewrite",
            dependencies: ["TypewriteCore", "TypewriteCLI"],
            swiftSettings: staticStdlib,
            linkerSettings: [.unsafeFlags(["-static-executable", "-use-ld=lld"], .when(platforms: [.linux], configuration: .release))]
        ),
        // The tests' judge: VirtualTerminal, an in-process terminal emulator (its file header says
        // what it models). In no product; the fuzz package (Tests/Fuzz) compiles the same file.
        .target(name: "TerminalJudge", dependencies: ["TypewriteCore"], path: "Tests/TerminalJudge"),
        .testTarget(name: "TypewriteCoreTests", dependencies: ["TypewriteCore", "TypewriteCLI", "TerminalJudge"]),
        // The library as a client sees it: imports TypewriteCore without @testable.
        .testTarget(name: "TypewriteLibraryTests", dependencies: ["TypewriteCore", "TerminalJudge"]),
    ]
)
