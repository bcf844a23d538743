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

        .target(name: "Imaging", dependencies: ["CLeptonica"]),
        .target(name: "Reader", dependencies: ["Imaging", "CZBar", "CTesseract", "CLeptonica"]),
        .executableTarget(name: "fieldrig", dependencies: ["Reader", "Imaging"]),

        .testTarget(name: "ImagingTests", dependencies: ["Imaging"]),
        .testTarget(name: "ReaderTests", dependencies: ["Reader", "Imaging"]),
        .testTarget(name: "fieldrigTests", dependencies: ["fieldrig"]),
    ]
)
