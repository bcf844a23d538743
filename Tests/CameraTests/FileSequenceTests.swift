import Foundation
import Imaging
import Model
import Testing

@testable import Camera

@Suite("Frame sequences")
struct FrameSequenceTests {
    @Test("frames, holds at the rate, gaps and the ending give exact times")
    func times() throws {
        let folder = try makeSequence("fps 10\nframe 0 a.png\nhold b.png 0.3   # three frames\ngap 0.5\nframe 1.0 c.png\nend loop\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sequence = try FrameSequence(folder: folder)
        #expect(sequence.entries.map(\.file) == ["a.png", "b.png", "b.png", "b.png", "c.png"])
        #expect(sequence.entries.map { formatSeconds($0.time) } == ["0.000000", "0.100000", "0.200000", "0.300000", "1.000000"])
        #expect(sequence.ending == .loop)
        #expect(sequence.length == .milliseconds(1100))
    }

    @Test("a closing gap lengthens the sequence; a hold after a gap starts where the gap ends")
    func gaps() throws {
        let folder = try makeSequence("gap 0.5\nhold a.png 0.1\ngap 1\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sequence = try FrameSequence(folder: folder)
        #expect(sequence.entries.map { formatSeconds($0.time) } == ["0.500000", "0.533333", "0.566666"])
        #expect(sequence.length == .microseconds(566_666) + .microseconds(33_333) + .seconds(1))
    }

    @Test(
        "bad descriptions give an error naming the file and line",
        arguments: [
            ("frame 0.5 a.png\nframe 0.2 b.png", "sequence:2: frame at 0.2 s is not after"),
            ("hold a.png 0.5\ngap 1\nframe 0.6 b.png", "sequence:3: frame at 0.6 s falls inside the gap"),
            ("frame 0 a.png\nframe 0.1 missing.png", "sequence:2: frame file"),
            ("frame soon a.png", "sequence:1: 'soon' is not a time"),
            ("frame 0.1234567 a.png", "is not a time"),
            ("shutter 0 a.png", "sequence:1: unknown instruction 'shutter'"),
            ("fps 0\nhold a.png 1", "sequence:1: 'fps' takes"),
            ("end sometimes", "sequence:1: 'end' takes 'stop' or 'loop'"),
            ("# nothing here\n", "lists no frames"),
            // Digits Swift calls numbers but are not times here, and times past any bound.
            ("frame 0.½ a.png", "sequence:1: '0.½' is not a time"),
            ("frame ٣ a.png", "sequence:1: '٣' is not a time"),
            ("frame 10000000000000 a.png", "is not a time in seconds from 0 to 86400"),
            ("gap 9223372036854775807", "is not a time"),
            ("hold a.png 1e18", "is not a time"),
            ("hold a.png 86400", "more than 120000 frames"),
            ("hold a.png 3000\nhold a.png 3000", "sequence:2: the sequence would list more than"),
            ("gap 86400\ngap 1", "sequence:2: the sequence would last more than a day"),
        ])
    func bad(description: String, message: String) throws {
        let folder = try makeSequence(description)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect {
            _ = try FrameSequence(folder: folder)
        } throws: { error in
            String(describing: error).contains(message) && String(describing: error).hasPrefix(folder)
        }
    }

    @Test("a sequence saved with CRLF line ends reads as the same sequence")
    func crlf() throws {
        let folder = try makeSequence("fps 10\r\nframe 0 a.png\r\nhold b.png 0.2\r\nend loop\r\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sequence = try FrameSequence(folder: folder)
        #expect(sequence.entries.map(\.file) == ["a.png", "b.png", "b.png"] && sequence.ending == .loop)
    }

    @Test("fault strings refuse what is not a time or a frame, without crashing")
    func faults() {
        for text in ["busy@0.½", "busy@٣", "busy#٣", "busy#99999999999999999999", "busy@1e9", "busy@100000", "stopped~0.½", "busy@"] {
            var script = FaultScript()
            #expect(throws: SequenceError.self, "\(text)") { try script.add(parsing: text) }
        }
    }

    @Test("a missing folder, a file, and a folder with no description are told apart")
    func notSequences() throws {
        let empty = temporaryFolder("empty")
        defer { try? FileManager.default.removeItem(atPath: empty) }
        for (path, message) in [
            ("/nonexistent-\(getpid())", "no such folder"), ("\(root)/Package.swift", "not a folder"), (empty, "sequence: missing"),
        ] {
            #expect(throws: SequenceError.self) { try FrameSequence(folder: path) }
            do { _ = try FrameSequence(folder: path) } catch { #expect(error.message.contains(message), "\(error)") }
        }
    }

    @Test("a folder of images with no description plays them in name order, numbers by value, 30 a second, then stops")
    func imagesInNameOrder() throws {
        let folder = temporaryFolder("images")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, value) in [("frame10.png", UInt8(10)), ("frame2.PNG", 20), ("frame1.jpg", 30), (".hidden.png", 40)] {
            try ImageFile.writePNG(solidFrame(value), to: "\(folder)/\(name)")
        }
        try Data("not a frame".utf8).write(to: URL(fileURLWithPath: "\(folder)/notes.txt"))
        try FileManager.default.createDirectory(atPath: "\(folder)/frame3.png", withIntermediateDirectories: false)
        let sequence = try FrameSequence(folder: folder)
        #expect(sequence.implied)
        #expect(sequence.entries.map(\.file) == ["frame1.jpg", "frame2.PNG", "frame10.png"])
        #expect(sequence.entries.map { formatSeconds($0.time) } == ["0.000000", "0.033333", "0.066666"])
        #expect(sequence.ending == .stop && sequence.length == .microseconds(99_999))
        let camera = try FileSequenceCamera(folder: folder)
        try camera.start(.label)
        let values = drain(camera, until: .milliseconds(200)).compactMap { event -> UInt8? in
            if case .frame(let frame) = event { return frame.bytes.first }
            return nil
        }
        #expect(values == [30, 20, 10])
    }

    @Test("name order compares runs of digits by value, then the rest by character, then bytes")
    func nameOrder() {
        let names = ["b1", "a10", "a2", "a02", "a1", "A3", "a", "a1b", "img-9.png", "img-10.png", "img-010.png"]
        #expect(
            names.sorted(by: FrameSequence.inNameOrder) == [
                "A3", "a", "a1", "a1b", "a02", "a2", "a10", "b1", "img-9.png", "img-010.png", "img-10.png",
            ])
    }

    @Test("a corrupt image in a folder played in name order is named with the folder")
    func corruptImage() throws {
        let folder = temporaryFolder("images")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try ImageFile.writePNG(solidFrame(10), to: "\(folder)/1.png")
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: "\(folder)/2.png"))
        #expect {
            _ = try FileSequenceCamera(folder: folder)
        } throws: { error in
            String(describing: error)
                == "\(folder) (its images in name order): \(folder)/2.png: not an image this tool reads. Give a PNG, JPEG or PNM file."
        }
    }

    @Test("a corrupt frame file is reported when the camera is made, naming the line and the file")
    func corruptFrame() throws {
        let folder = try makeSequence("frame 0 a.png\nframe 0.1 bad.png\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: "\(folder)/bad.png"))
        #expect {
            _ = try FileSequenceCamera(folder: folder)
        } throws: { error in
            let text = String(describing: error)
            return text.hasPrefix("\(folder)/sequence:2: \(folder)/bad.png: not an image")
        }
    }
}

@Suite("Camera sources named on the command line")
struct CameraSourceTests {
    @Test("a sequence folder is a sequence wherever it lives, /dev/shm included; a missing /dev path is a device not present")
    func folders() throws {
        let folder = try makeSequence("fps 10\nframe 0 a.png\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try CameraSource(parsing: folder) == .sequence(folder))
        if access("/dev/shm", W_OK) == 0 {
            let memory = "/dev/shm/fieldrig-source-\(getpid())"
            try FileManager.default.copyItem(atPath: folder, toPath: memory)
            defer { try? FileManager.default.removeItem(atPath: memory) }
            #expect(try CameraSource(parsing: memory) == .sequence(memory))
        }
        #expect(throws: SequenceError.self) { try CameraSource(parsing: "/dev/video99") }
    }
}

@Suite("File-sequence camera")
struct FileSequenceCameraTests {
    @Test("plays each frame at its time, then ends")
    func playsThenEnds() throws {
        let folder = try makeSequence("fps 10\nframe 0 a.png\nhold b.png 0.2\nframe 0.5 c.png\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let camera = try FileSequenceCamera(folder: folder)
        try camera.start(.label)
        #expect(summary(drain(camera, until: .seconds(2))) == ["f0:10@0", "f1:20@0.1", "f2:20@0.2", "f3:30@0.5", "end@0.6"])
        #expect(camera.nextEvent(before: .seconds(10)) == nil)
    }

    @Test("a looping sequence starts again after its length, indices counting on")
    func loops() throws {
        let folder = try makeSequence("fps 10\nframe 0 a.png\nframe 0.1 b.png\nend loop\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let camera = try FileSequenceCamera(folder: folder)
        try camera.start(.label)
        #expect(summary(drain(camera, until: .milliseconds(450))) == ["f0:10@0", "f1:20@0.1", "f2:10@0.2", "f3:20@0.3", "f4:10@0.4"])
    }

    @Test("nothing comes before a deadline earlier than the next frame; a restart begins again")
    func deadlines() throws {
        let folder = try makeSequence("frame 0.5 a.png\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let camera = try FileSequenceCamera(folder: folder)
        #expect(camera.nextEvent(before: .seconds(1)) == nil)  // not started
        try camera.start(.label)
        #expect(camera.nextEvent(before: .milliseconds(500)) == nil)
        #expect(summary([camera.nextEvent(before: .milliseconds(501))!]) == ["f0:10@0.5"])
        camera.stop()
        #expect(camera.nextEvent(before: .seconds(5)) == nil)
        try camera.start(.label)
        #expect(summary([camera.nextEvent(before: .seconds(1))!]) == ["f0:10@0.5"])
    }

    @Test("the sweep set-up's low rate skips frames; the label set-up gets them all")
    func sweepRate() throws {
        let folder = try makeSequence("fps 30\nhold a.png 1\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let camera = try FileSequenceCamera(folder: folder)
        try camera.start(.label)
        #expect(drain(camera, until: .seconds(2)).filter { if case .frame = $0 { true } else { false } }.count == 30)
        try camera.start(.sweep)
        let frames = drain(camera, until: .seconds(2)).frames.map(\.timestamp)
        #expect(frames.count == 5)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $1 - $0 >= .milliseconds(199) })
    }

    @Test("a frame file that disappears while playing stops the camera, naming it in the reason")
    func vanishedFile() throws {
        let files = (0..<70).map { "frame 0.\(String(format: "%03d", $0 * 10)) f\($0).png" }.joined(separator: "\n")
        let folder = try makeSequence(files)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for i in 0..<70 { try ImageFile.writePNG(solidFrame(UInt8(i)), to: "\(folder)/f\(i).png") }
        let camera = try FileSequenceCamera(folder: folder)  // more than the cache holds
        try FileManager.default.removeItem(atPath: "\(folder)/f3.png")
        try camera.start(.label)
        let events = drain(camera, until: .seconds(1))
        #expect(summary(events) == ["f0:0@0", "f1:1@0.01", "f2:2@0.02", "stopped@0.03"])
        guard case .trouble(.stopped(let reason), _) = events.last else { return }
        #expect(reason.contains("f3.png"))
    }

    @Test(
        "the built-in sequences all open",
        arguments: ((try? FileManager.default.contentsOfDirectory(atPath: "\(root)/Devices/sequences")) ?? []).filter { !$0.contains(".") })
    func builtIn(name: String) throws {
        let camera = try FileSequenceCamera(folder: "\(root)/Devices/sequences/\(name)")
        try camera.start(.label)
        #expect(camera.nextEvent(before: .seconds(60)) != nil)
    }
}

@Suite("Sequences that cannot be reached are told apart from missing ones")
struct UnreachableSequenceTests {
    @Test("a loop of links, as the description or as a frame, is named as what it is")
    func loops() throws {
        let folder = temporaryFolder("loops")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        symlink("\(folder)/b", "\(folder)/a")
        symlink("\(folder)/a", "\(folder)/b")
        try "hold a 0.1\n".write(toFile: "\(folder)/sequence", atomically: true, encoding: .utf8)
        do {
            _ = try FrameSequence(folder: folder)
            Issue.record("a looping frame was accepted")
        } catch {
            #expect(error.message.contains("cannot be reached (Too many levels of symbolic links)"), "\(error)")
        }
        let other = temporaryFolder("loops2")
        defer { try? FileManager.default.removeItem(atPath: other) }
        symlink("\(other)/sequence", "\(other)/sequence")
        do {
            _ = try FrameSequence(folder: other)
            Issue.record("a looping description was accepted")
        } catch {
            #expect(error.message.contains("Too many levels of symbolic links") && !error.message.contains("missing"), "\(error)")
        }
    }
}
