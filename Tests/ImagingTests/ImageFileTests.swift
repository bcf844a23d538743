import Foundation
import Model
import Testing

@testable import Imaging

/// The project's root, found from this file's place in it.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

func fixture(_ relative: String) -> String { "\(root)/\(relative)" }

@Suite("Image files")
struct ImageFileTests {
    @Test("a label PNG loads as a gray 1280x720 frame with the desk dark and the label white")
    func loadsPNG() throws {
        let frame = try ImageFile.load(fixture("Devices/labels/dell-latitude.png"))
        #expect(frame.width == 1280 && frame.height == 720)
        #expect(frame[5, 5] == 0x5A)  // the desk
        #expect(frame[1000, 150] == 0xFF)  // blank label
    }

    @Test("pixels keep their order through leptonica: a PNG written and read back is byte-equal")
    func roundTripKeepsByteOrder() throws {
        // Every pixel of a row differs from its neighbours, so a byte swap within a word shows.
        let width = 61
        let height = 7
        let bytes = (0..<width * height).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / width) }
        let frame = Frame(width: width, height: height, bytes: bytes)
        let path = NSTemporaryDirectory() + "fieldrig-roundtrip-\(getpid()).png"
        defer { unlink(path) }
        try ImageFile.writePNG(frame, to: path)
        let back = try ImageFile.load(path)
        #expect(back.bytes == frame.bytes)
        #expect(try ImageFile.decode(ImageFile.pngData(frame), path: "memory").bytes == bytes)
    }

    @Test("a frame with padded rows is packed before writing")
    func stridedFrame() throws {
        let frame = Frame(width: 3, height: 2, stride: 5, bytes: [1, 2, 3, 99, 99, 4, 5, 6, 99, 99])
        #expect(frame.packed().bytes == [1, 2, 3, 4, 5, 6])
        #expect(try ImageFile.decode(ImageFile.pngData(frame), path: "m").bytes == [1, 2, 3, 4, 5, 6])
    }

    @Test(
        "JPEG, PNM and colour PNG load as gray",
        arguments: [
            ("Devices/images/hp-elitebook-half.jpg", 640, 360),
            ("Devices/images/apple-macbook-half.pgm", 640, 360),
            ("Devices/images/dell-latitude-colour.png", 1280, 720),
        ])
    func otherFormats(path: String, width: Int, height: Int) throws {
        let frame = try ImageFile.load(fixture(path))
        #expect(frame.width == width && frame.height == height)
        #expect(frame.bytes.count == width * height)
        #expect(Set(frame.bytes).count > 2)
    }

    @Test(
        "bad files give an error naming the file and what is wrong",
        arguments: [
            ("Devices/images/empty.png", "the file is empty"),
            ("Devices/images/notes.png", "not an image this tool reads"),
            ("Devices/images/truncated.png", "the PNG data is corrupt or truncated"),
            ("Devices/images/corrupt.png", "the PNG data is corrupt or truncated"),
            ("Devices/images/truncated.jpg", "the JPEG data is corrupt or truncated"),
            ("Devices/images/no-such-file.png", "no such file"),
            ("Devices/images", "is a directory"),
            ("Devices/labels/generate", "not an image this tool reads"),
        ])
    func badFiles(path: String, message: String) {
        let full = fixture(path)
        #expect {
            _ = try ImageFile.load(full)
        } throws: { error in
            let text = String(describing: error)
            return text.hasPrefix(full + ": ") && text.contains(message) && !text.contains("\n")
        }
    }

    @Test("a device is not taken for an image file")
    func device() {
        #expect {
            _ = try ImageFile.load("/dev/null")
        } throws: { error in
            String(describing: error) == "/dev/null: not a regular file. Give a PNG, JPEG or PNM image file."
        }
    }

    @Test("writing into a missing folder fails with the path, leaving nothing behind")
    func writeFailure() {
        let path = "/nonexistent-folder-\(getpid())/out.png"
        #expect {
            try ImageFile.writePNG(Frame(width: 1, height: 1, bytes: [0]), to: path)
        } throws: { error in
            String(describing: error).hasPrefix(path + ": cannot write the image")
        }
    }

    @Test("the PNG check accepts every fixture and refuses a flipped byte")
    func pngStructure() throws {
        var data = try ImageFile.readFile(fixture("Devices/labels/hp-elitebook.png"))
        #expect(PNGStructure.isIntact(data))
        data[data.count / 2] ^= 1
        #expect(!PNGStructure.isIntact(data))
        #expect(PNGStructure.crc32(Array("IEND".utf8)) == 0xAE42_6082)
    }
}

@Suite("Upright frames")
struct UprightFrameTests {
    @Test("a level label is left as it is")
    func level() throws {
        let frame = try ImageFile.load(fixture("Devices/labels/hp-elitebook.png"))
        let upright = UprightFrame(frame)
        #expect(upright.angle == 0)
        #expect(upright.frame == frame)
        #expect(upright.originalBox(Box(x: 1, y: 2, width: 3, height: 4)) == Box(x: 1, y: 2, width: 3, height: 4))
    }

    @Test(
        "a label turned 4 degrees clockwise is found to be, and turned back",
        arguments: [
            ("Devices/labels/dell-optiplex-rotate.png", 4.0), ("Devices/labels/cisco-router-rotate.png", -6.0),
        ])
    func tilted(path: String, degrees: Double) throws {
        let upright = UprightFrame(try ImageFile.load(fixture(path)))
        // ImageMagick's -rotate N turns clockwise; undoing it is a counter-clockwise turn.
        #expect(abs(upright.angle + degrees) < 0.5, "found \(upright.angle)")
        #expect(upright.frame.width == 1280 && upright.frame.height == 720)
    }

    @Test("a label on a mid-gray desk with a few lines of print: its skew is measured against its own background")
    func onGreyDesk() throws {
        // Rendered by Devices/serial-corpus/generate (an Apple label on a #707070 desk, turned
        // about 6.5 degrees clockwise): thresholded at one gray level, leptonica is not confident
        // of any angle and the frame was left tilted.
        let upright = UprightFrame(try ImageFile.load(fixture("Devices/images/label-on-grey-desk-rotated.png")))
        #expect(upright.angle < -5.5 && upright.angle > -7.5, "found \(upright.angle)")
        #expect(upright.frame.width == 1280 && upright.frame.height == 720)
    }

    @Test("boxes map back: the centre stays, a corner turns about it")
    func mapping() {
        let frame = Frame(width: 100, height: 100, bytes: [UInt8](repeating: 255, count: 10_000))
        let upright = UprightFrame(testFrame: frame, angle: 90)
        #expect(upright.originalBox(Box(x: 50, y: 50, width: 0, height: 0)) == Box(x: 50, y: 50, width: 1, height: 1))
        // A point right of the centre, turned back a quarter counter-clockwise, lies above it.
        let mapped = upright.originalBox(Box(x: 80, y: 50, width: 0, height: 0))
        #expect(mapped.x == 50 && mapped.y == 20)
    }
}

@Suite("Image files from a careless or hostile hand")
struct HostileImageTests {
    func scratch() -> String {
        let folder = NSTemporaryDirectory() + "fieldrig-hostile-\(getpid())-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("a FIFO is refused at once, not waited on for ever")
    func fifo() throws {
        let folder = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo("\(folder)/f", 0o600) == 0)
        #expect(throws: ImageError(path: "\(folder)/f", .notRegularFile)) { try ImageFile.load("\(folder)/f") }
    }

    @Test("a small PNG declaring 40000x40000 pixels is refused before it is decoded")
    func declaredHuge() throws {
        let folder = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            let n = UInt32(data.count)
            let crc = PNGStructure.crc32(body)
            return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + body
                + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        }
        let side: [UInt8] = [0, 0, 0x9C, 0x40]  // 40000
        let png =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", side + side + [8, 0, 0, 0, 0]) + chunk("IDAT", [])
            + chunk("IEND", [])
        #expect(FileManager.default.createFile(atPath: "\(folder)/huge.png", contents: Data(png)))
        #expect(throws: ImageError(path: "\(folder)/huge.png", .tooManyPixels(width: 40000, height: 40000))) {
            try ImageFile.load("\(folder)/huge.png")
        }
        // Sides whose product does not fit in a machine word are too many pixels, not a crash.
        let pnm = Array("P4\n4 8111111111111111111\n".utf8) + [0, 0]
        #expect(throws: ImageError(path: "wide.pbm", .tooManyPixels(width: 4, height: 8_111_111_111_111_111_111))) {
            try ImageFile.decode(pnm, path: "wide.pbm")
        }
    }

    @Test("a large file that is not an image is refused from its first bytes; an image file over 64 MiB is refused unread")
    func largeFiles() throws {
        let folder = scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(FileManager.default.createFile(atPath: "\(folder)/zeros.bin", contents: Data(count: 1 << 20)))
        #expect(throws: ImageError(path: "\(folder)/zeros.bin", .notAnImage)) { try ImageFile.load("\(folder)/zeros.bin") }
        // A sparse file: 65 MiB long, with a PNG signature in front.
        let path = "\(folder)/long.png"
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])))
        #expect(truncate(path, off_t(65 << 20)) == 0)
        #expect(throws: ImageError(path: path, .tooLarge(limit: ImageFile.largestFile))) { try ImageFile.load(path) }
    }
}
