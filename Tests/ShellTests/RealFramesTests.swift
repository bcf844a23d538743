import Camera
import Foundation
import Imaging
import Model
import Reader
import Register
import Shell
import Testing

@testable import Companion

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// A driver for the scan sheet over a recorded sequence, a demo register and the real reader.
// The trouble sentences, written out here from the specification, not taken from the code under test.
let sentences: [String: String] = [
    "access off": "Camera access is off. Turn it on in Settings, or add it by hand.",
    "cannot scan": "This device cannot scan. Add it by hand instead.",
    "busy": "The camera is busy. Another app is using it. Close it and come back, or add it by hand.",
    "stopped": "The scanner stopped. Add it by hand instead.",
]

func driver(
    _ purpose: ScanSheet.Purpose, _ sequence: String, faults: FaultScript = .none, budget: TextBudget = .standard
) throws -> (ScanDriver, String) {
    let folder = NSTemporaryDirectory() + "fieldrig-scan-\(getpid())-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let register = try Register(path: "\(folder)/register.sqlite")
    try register.apply(.demo, at: Timestamp(year: 2026, month: 11, day: 1))
    var camera: any CameraDevice = try FileSequenceCamera(folder: "\(root)/Devices/sequences/\(sequence)")
    if faults != .none { camera = FaultyCamera(camera, script: faults) }
    let d = try ScanDriver(
        purpose: purpose, camera: camera, reader: CachingReader(try FrameReader()), register: register, clock: VirtualClock(),
        budget: budget)
    return (d, folder)
}

@Suite("Scan sheet with real frames through the file-sequence camera")
struct RealFramesTests {
    @Test("a proven tag opens its record on its first decoded frame")
    func provenTag() throws {
        let (d, folder) = try driver(.intake, "tag-mf-0004")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        d.send(.opened)
        d.run(until: .seconds(2))
        #expect(d.opened == [.openRecord(tag: "MF-0004")])
        // The tag is in view from 0.2 s (the seventh frame); it fired then, not a window later.
        #expect(d.log.contains("0.200000 opened: record MF-0004"))
        #expect(d.sheet.offer == nil)
    }

    @Test("barcodes first: a proven tag's frame fires on its barcode pass, its printed text never read")
    func barcodesFirst() throws {
        for purpose in [ScanSheet.Purpose.intake, .walkRound] {
            let (d, folder) = try driver(purpose, "tag-mf-0004", budget: .everyFrame)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            var read: [(index: Int, text: Bool)] = []
            d.pump.observer = { frame, readings in read.append((frame.index, readings.contains { !$0.source.isBarcode })) }
            d.send(.opened)
            d.run(until: .milliseconds(201))
            // The frame at 0.2 s is the tag's first: it fired on its barcodes alone.
            let fired = try #require(read.last)
            #expect(fired.index == 6 && !fired.text)
            #expect(purpose == .walkRound ? d.sheet.hit?.tag == "MF-0004" : d.opened == [.openRecord(tag: "MF-0004")])
            // Before it, the sheet was looking and took every frame's text.
            #expect(d.pump.framesTextRead == 6 && d.pump.framesRead == 7)
            d.run(until: .seconds(1))
            // A card up takes no text; Scan, still looking after opening the record, does.
            #expect(d.pump.framesTextRead == (purpose == .walkRound ? 6 : d.pump.framesRead - 1))
        }
    }

    @Test("a forged tag and another register's tag settle, and are offered after the window", arguments: ["tag-forged", "tag-foreign"])
    func notOurs(sequence: String) throws {
        let (d, folder) = try driver(.intake, sequence)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        d.send(.opened)
        d.run(until: .milliseconds(1199))
        #expect(d.sheet.offer == nil && d.sheet.settling != nil)
        d.run(until: .milliseconds(1200))
        let offer = try #require(d.sheet.offer)
        #expect(offer.values.count == 1 && offer.values[0].value.hasPrefix("MFST-T1/") && offer.values[0].whereRead == ["QR-Code barcode"])
        #expect(d.opened.isEmpty)
    }

    @Test("a label settles after the window with every value seen, barcode and print")
    func label() throws {
        let (d, folder) = try driver(.intake, "dell-latitude-hold")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        d.send(.opened)
        d.run(until: .seconds(3))
        let offer = try #require(d.sheet.offer)
        let values = offer.values.map(\.value)
        #expect(values.first == "7XK2M93")
        for line in ["DELL Latitude 5420", "Service Tag (S/N): 7XK2M93", "Express Service Code: 17266574631"] {
            #expect(values.contains(line), "\(values)")
        }
        #expect(d.sheet.screen.routes.isEmpty)
    }

    @Test("each fault at start gives its sentence and routes", arguments: CameraTrouble.allCases)
    func faultAtStart(trouble: CameraTrouble) throws {
        let (d, folder) = try driver(.walkRound, "walk-round", faults: .atStart(trouble))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        d.send(.opened)
        d.run(until: .seconds(2))
        #expect(d.sheet.screen.sentence == sentences[trouble.kind])
        #expect(d.sheet.screen.routeTitles == ["Add it by hand"])
        #expect(d.sheet.hit == nil)
    }

    @Test("each fault mid-walk-round gives its sentence and routes, after a first hit was verified", arguments: CameraTrouble.allCases)
    func faultMidWalkRound(trouble: CameraTrouble) throws {
        let (d, folder) = try driver(.walkRound, "walk-round", faults: .at(.milliseconds(2000), trouble))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        d.send(.opened)
        d.run(until: .milliseconds(500))
        #expect(d.sheet.hit?.tag == "MF-0004")
        d.send(.tapVerify)
        #expect(d.sheet.hit?.confirmation == "Verified at 09:00.")
        d.send(.tapNext)
        d.run(until: .seconds(3))
        #expect(d.sheet.screen.sentence == sentences[trouble.kind])
        // MF-0006's card, drawn at 1.8 s, stays over the trouble: its VERIFY needs no camera.
        #expect(d.sheet.hit?.tag == "MF-0006" && d.sheet.screen.routes.isEmpty)
        d.send(.tapNext)
        #expect(d.sheet.screen.routeTitles == ["Add it by hand"])
        #expect(d.sheet.screen.buttons == (trouble == .accessOff ? ["Open Settings"] : []))
        #expect(try d.register.stamps().map(\.tag) == ["MF-0004"])
    }

    @Test("a whole walk-round: four hits, each verified; the disposed one is refused on its card")
    func walkRound() throws {
        let (d, folder) = try driver(.walkRound, "walk-round")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        d.send(.opened)
        var confirmations: [String: String] = [:]
        for until in stride(from: 100, through: 7000, by: 100) {
            d.run(until: .milliseconds(until))
            if let card = d.sheet.hit, card.status == .waiting {
                d.send(.tapVerify)
                confirmations[card.tag] = d.sheet.hit?.confirmation
                d.send(.tapNext)
            }
        }
        #expect(confirmations.keys.sorted() == ["MF-0002", "MF-0004", "MF-0006", "MF-0008"])
        #expect(confirmations["MF-0008"] == StampRefusal.assetDisposed.sentence)
        #expect(try d.register.stamps().map(\.tag).sorted() == ["MF-0002", "MF-0004", "MF-0006"])
        #expect(d.opened.isEmpty)  // no record was opened on a hit
    }
}

@Suite("The serial chooser, driven from a camera and from a still")
struct SerialDriverTests {
    @Test("a recorded label settles into the chooser by itself; USE THIS SERIAL applies the chosen value")
    func recorded() throws {
        let camera = try CameraSource(parsing: "\(root)/Devices/sequences/dell-latitude-hold").open(faults: .none)
        let d = SerialDriver(camera: camera, reader: CachingReader(try FrameReader()), clock: VirtualClock())
        d.send(.opened)
        d.run(until: .seconds(3))
        #expect(d.chooser.rows.map(\.value) == ["7XK2M93"])
        d.send(.tapRow(0))
        d.send(.tapUse)
        #expect(d.usedSerial == "7XK2M93")
        #expect(!d.pump.isRunning)
    }

    @Test("a still picture gives the same rows as the camera, and the terminal draws those rows")
    func still() throws {
        let reader = try FrameReader()
        let frame = try ImageFile.load("\(root)/Devices/labels/disagree-digit.png")
        let chooser = SerialDriver.still(reader.read(frame))
        #expect(chooser.rows.map(\.value) == ["CN0KX2M1742", "CN0KX2M1743"])
        let drawn = TerminalText.serialChooser(chooser)
        #expect(drawn.first == "Which one is the serial?")
        #expect(drawn.contains("    " + chooser.rows[1].value) && drawn.contains("      " + chooser.rows[1].detail))
    }

    @Test("a still of a desk alone, its grain read as scraps, goes straight through to typing the serial by hand")
    func stillOfNothing() throws {
        let reader = try FrameReader()
        let readings = reader.read(try ImageFile.load("\(root)/Devices/images/desk-alone-under-webcam-noise.jpg"))
        #expect(!readings.isEmpty)  // scraps read, none a value
        let chooser = SerialDriver.still(readings)
        #expect(chooser.phase == .typingByHand && chooser.candidates.isEmpty)
        #expect(TerminalText.serialChooser(chooser) == ["Nothing was read that could be a serial: it goes straight to typing it by hand."])
    }

    @Test("a camera that fails as the serial flow opens leaves the chooser saying so, never reading for ever")
    func failsAtOpen() throws {
        let camera = try CameraSource(parsing: "\(root)/Devices/sequences/dell-latitude-hold").open(
            faults: .atStart(.stopped(reason: "test")))
        let d = SerialDriver(camera: camera, reader: CachingReader(try FrameReader()), clock: VirtualClock())
        d.send(.opened)
        d.run(until: .seconds(5))
        #expect(d.chooser.camera == .trouble(.stopped(reason: "test")))
    }
}
