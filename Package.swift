// swift-tools-version: 6.0
import PackageDescription

/// The Manifest field rig: the companion's rules, run on Linux against real and simulated cameras.
let package = Package(
    name: "FieldRig",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "fieldrig", targets: ["fieldrig"]),
        .library(name: "Reader", targets: ["Reader"]),
    ],
    targets: [
        // C libraries from Debian, each wrapped once at the edge.
        .systemLibrary(name: "CZBar", providers: [.apt(["libzbar-dev"])]),
        .systemLibrary(name: "CLeptonica", providers: [.apt(["libleptonica-dev"])]),
        .systemLibrary(name: "CTesseract", providers: [.apt(["libtesseract-dev", "tesseract-ocr-eng"])]),
        .systemLibrary(name: "CV4L2", providers: [.apt(["libv4l-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CQRencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),

        // The vocabulary as plain values, no C and no I/O: what the core is written in.
        .target(name: "Model"),
        .target(name: "Durable"),
        // OpenSSL wrapped once for what proves things: digests, MACs, P-256 signatures.
        .target(name: "Crypto", dependencies: ["Model", "COpenSSL"]),
        .target(name: "Imaging", dependencies: ["Model", "CLeptonica", "CQRencode", "Durable"]),
        // zxing-cpp (C++) behind a C interface of ours: the 2-D codes zbar does not read.
        .target(
            name: "CZXing", path: "Sources/CZXing", cxxSettings: [.unsafeFlags(["-std=c++17", "-Wall"])],
            linkerSettings: [.linkedLibrary("ZXing")]),
        .target(name: "Reader", dependencies: ["Model", "Imaging", "CZBar", "CTesseract", "CZXing"]),
        .target(name: "Camera", dependencies: ["Model", "Imaging", "Durable", "CV4L2"]),
        .target(name: "Register", dependencies: ["Model", "CSQLite", "Crypto", "Durable"]),
        // The core: screens as pure state machines, and the serial extractor. Plain values in and out.
        .target(name: "Serials", dependencies: ["Model"]),
        .target(name: "Companion", dependencies: ["Model", "Serials"]),
        // The screens as HTML, for the live page and the scenario traces: pure, no I/O.
        .target(name: "PhoneFace", dependencies: ["Model", "Companion"]),
        .target(name: "MacLink", dependencies: ["Model", "COpenSSL", "Crypto", "Register", "Durable"]),
        // libmicrohttpd wrapped once: the live page's server.
        .target(name: "PageServer", dependencies: ["CMicroHTTPD", "Durable"]),
        .target(
            name: "Shell", dependencies: ["Model", "Companion", "Crypto", "Reader", "Camera", "Register", "Imaging", "MacLink", "Durable"]),
        .target(
            name: "ScenarioKit",
            dependencies: ["Model", "Shell", "Companion", "Crypto", "Reader", "Camera", "Register", "MacLink", "PhoneFace", "Imaging"]),
        // QA's scenarios: every file in Scenarios/ is catalogued at build time; no list to edit.
        .executableTarget(name: "scenario-catalog"),
        .plugin(name: "ScenarioCatalog", capability: .buildTool(), dependencies: ["scenario-catalog"]),
        .target(
            name: "Scenarios", dependencies: ["ScenarioKit", "Companion", "Camera"], path: "Scenarios",
            exclude: ["README.md", "RULES", "Frames"],
            plugins: ["ScenarioCatalog"]),
        .executableTarget(
            name: "fieldrig",
            dependencies: [
                "Model", "Reader", "Imaging", "Camera", "Register", "Durable", "Crypto", "Companion", "Shell", "Serials", "MacLink",
                "ScenarioKit", "Scenarios", "PhoneFace", "PageServer",
            ]),
        // Every parser of outside input, as a function of raw bytes, and libFuzzer's driver over them.
        .target(name: "FuzzTargets", dependencies: ["Camera", "Companion", "Crypto", "Imaging", "MacLink", "Register", "Serials"]),
        .executableTarget(name: "fieldrig-fuzz", dependencies: ["FuzzTargets"]),
        // A user-space V4L2 device (FUSE) for testing the V4L2 camera without hardware.
        .executableTarget(
            name: "fake-v4l2", path: "Devices/fake-v4l2", exclude: ["README.md"],
            cSettings: [.unsafeFlags(["-Wall", "-Wextra"])],
            linkerSettings: [.linkedLibrary("fuse3"), .linkedLibrary("jpeg"), .linkedLibrary("pthread")]),

        .testTarget(name: "ModelTests", dependencies: ["Model"]),
        .testTarget(name: "DurableTests", dependencies: ["Durable"]),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto"]),
        .testTarget(name: "ImagingTests", dependencies: ["Model", "Imaging"]),
        .testTarget(name: "ReaderTests", dependencies: ["Model", "Reader", "Imaging"]),
        .testTarget(name: "CameraTests", dependencies: ["Model", "Camera", "Imaging", "fake-v4l2"]),
        .testTarget(name: "RegisterTests", dependencies: ["Register", "Crypto", "CSQLite"]),
        .testTarget(name: "MacLinkTests", dependencies: ["MacLink", "Register", "Companion", "Crypto"]),
        .testTarget(name: "SerialsTests", dependencies: ["Model", "Serials"]),
        // The core's tests link no C library.
        .testTarget(name: "CompanionTests", dependencies: ["Model", "Companion", "Serials"]),
        .testTarget(
            name: "ShellTests",
            dependencies: ["Model", "Shell", "Companion", "Crypto", "Reader", "Camera", "Register", "Imaging", "MacLink"]),
        .testTarget(name: "fieldrigTests", dependencies: ["Model", "fieldrig", "Camera", "Companion", "Imaging", "MacLink", "Register"]),
        .testTarget(name: "FuzzTests", dependencies: ["FuzzTargets"]),
        .testTarget(name: "PageServerTests", dependencies: ["PageServer"]),
        .testTarget(name: "PhoneFaceTests", dependencies: ["PhoneFace", "Companion", "Model"]),
        .testTarget(name: "ScenarioTests", dependencies: ["ScenarioKit", "Scenarios", "Companion", "Reader", "CSQLite"]),
    ]
)

// Each file imports what it uses: a member is visible only through a module the file imports.
for target in package.targets where ![.system, .plugin].contains(target.type) && !["CZXing", "fake-v4l2"].contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
