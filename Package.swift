// swift-tools-version:6.0
// typewrite: a Unix pipe filter that types its input onto the terminal with a soft fade.
// No package dependencies: only the toolchain (stdlib, Foundation, Dispatch, Glibc/Darwin, Testing).
import PackageDescription

// Startup cost: linking the Swift runtime and Foundation statically takes `echo hi | typewrite`
// from about 3.6x to 1.4x the time of `echo hi | cat` (issue 5). Release builds on Linux only, so
// `swift build -c release` gives what the README installs; debug builds and tests link dynamically.
// The flag goes to the compiler too, so that imports resolve to the static modules and their
// autolink entries name the static libraries (what `swift build --static-swift-stdlib` does).
let staticStdlib: [SwiftSetting] = [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]

let package = Package(
    name: "typewrite",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "typewrite", targets: ["typewrite"]),
        .library(name: "TypewriteCore", targets: ["TypewriteCore"]),
    ],
    targets: [
        .target(name: "TypewriteCore", swiftSettings: staticStdlib),
        .executableTarget(
            name: "typewrite",
            dependencies: ["TypewriteCore"],
            swiftSettings: staticStdlib,
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]
        ),
        .testTarget(name: "TypewriteCoreTests", dependencies: ["TypewriteCore"]),
    ]
)
