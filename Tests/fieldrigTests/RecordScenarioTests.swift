import Camera
import Foundation
import Imaging
import Testing

/// A project folder of its own for a recording: Scenarios/ and Devices/ made as it fills them.
func recordingRoot() throws -> String {
    let root = NSTemporaryDirectory() + "fieldrig-record-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: root + "/Scenarios", withIntermediateDirectories: true)
    return root
}

/// Type-checks a generated scenario file against the modules this build made.
func typecheck(_ file: String) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    let modules = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
    let cModules = try FileManager.default.contentsOfDirectory(atPath: "\(root)/Sources").filter { $0.hasPrefix("C") }.sorted()
    process.arguments =
        ["swiftc", "-typecheck", "-I", "\(modules)/Modules"] + cModules.flatMap { ["-I", "\(root)/Sources/\($0)"] }
        + ["-Xcc", "-fmodule-map-file=\(modules)/CZXing.build/module.modulemap", file]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let said = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, stdout: "", stderr: String(decoding: said, as: UTF8.self))
}

@Suite("fieldrig live --record-scenario")
struct RecordScenarioTests {
    static let session = [
        "live", "--camera", "Devices/sequences/walk-round", "--walk-round", "--virtual", "--seconds", "8",
        "--record-scenario", "walkTwo", "--keys", "1.0:v,1.2:n,2.5:v,2.7:n,3.5:fault:busy",
    ]

    @Test("a session becomes a scenario that replays as it was seen, type-checks, and is the same file when the run is the same")
    func recordAndReplay() throws {
        let roots = try [recordingRoot(), recordingRoot()]
        defer { for root in roots { try? FileManager.default.removeItem(atPath: root) } }
        var files: [String] = []
        for root in roots {
            let run = try fieldrig(Self.session + ["--record-into", root])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("replayed on the virtual clock: every step as seen live"), "\(run.stdout.suffix(600))")
            files.append(try String(contentsOfFile: "\(root)/Scenarios/walkTwo.swift", encoding: .utf8))
        }
        #expect(files[0] == files[1])
        let file = files[0]
        for step in [
            "openScan(.walkRound)", "Phone(recording: \"walkTwo\")", "tapVerify()", "expectVerified()", "tapNext()", "cameraFails(.busy)",
            "expectCard(tag: \"MF-0006\"", "let recordedWalkTwo = Scenario(",
        ] {
            #expect(file.contains(step), "\(step) is not in\n\(file)")
        }
        let recording = "\(roots[0])/Devices/recordings/walkTwo"
        let frames = try String(contentsOfFile: "\(recording)/sequence", encoding: .utf8).split(separator: "\n").filter {
            $0.hasPrefix("frame ")
        }
        let readings = try String(contentsOfFile: "\(recording)/readings", encoding: .utf8).split(separator: "\n")
        #expect(frames.count > 60 && readings.count == frames.count)
        #expect(readings.contains { $0.hasSuffix("\tMF-0004") || $0.contains("MF-0004") })
        let checked = try typecheck("\(roots[0])/Scenarios/walkTwo.swift")
        #expect(checked.status == 0, "\(checked.stderr)")
    }

    @Test("a name that is no identifier, a scenario recorded already, --register and --fault are refused before anything is written")
    func refusals() throws {
        let root = try recordingRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let base = ["live", "--camera", "Devices/sequences/walk-round", "--virtual", "--seconds", "1", "--record-into", root]
        let badName = try fieldrig(base + ["--record-scenario", "walk-two"])
        #expect(badName.status == 2 && badName.stderr.contains("letters, digits and _ starting with a letter, not 'walk-two'"))
        try "".write(toFile: "\(root)/Scenarios/taken.swift", atomically: true, encoding: .utf8)
        let taken = try fieldrig(base + ["--record-scenario", "taken"])
        #expect(taken.status == 1 && taken.stderr.contains("taken.swift exists already"))
        #expect(try fieldrig(base + ["--record-scenario", "x", "--fault", "busy"]).status == 2)
        #expect(try fieldrig(base + ["--record-scenario", "x", "--register", "\(root)/r.sqlite"]).status == 2)
        #expect(!FileManager.default.fileExists(atPath: "\(root)/Devices/recordings/x"))
    }
}

/// The round trip at the page, in a real browser.
@Suite("recording a scenario at the live page", .serialized)
struct RecordAtThePageTests {
    @Test(
        "Record, Expect this card, VERIFY, Expect this card, the camera busy, Stop: the picked expectations, type-checked, replayed green")
    func roundTrip() throws {
        try recordAtThePage(camera: "Devices/sequences/tag-mf-0004")
    }

    @Test(
        "the same round trip at the fake UVC webcam, streaming a tag",
        .enabled(if: FakeV4L2Mount.available, "FUSE is not available here, so no fake webcam can be mounted"))
    func roundTripAtTheWebcam() throws {
        let tag = try ImageFile.load("\(root)/Devices/tags/mf-0004.png")
        let device = try FakeV4L2Mount.beside(frames: [tag], options: ["--loop"])
        try recordAtThePage(camera: device.path)
    }

    func recordAtThePage(camera: String) throws {
        let root = try recordingRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let rig = try BackgroundRig([
            "live", "--camera", camera, "--walk-round", "--web", "0", "--seconds", "300",
            "--record-scenario", "atThePage", "--record-into", root,
        ])
        let address = String(try rig.address().dropFirst("page: ".count))
        let browser = try Chromium()
        let tab = try browser.open(address)
        func click(_ key: String) throws {
            _ = try browser.evaluate("document.querySelector('button[data-key=\"\(key)\"]').click()", in: tab)
        }
        func waitFor(_ expression: String) throws -> Any? { try browser.waitFor(expression, in: tab) }
        #expect((try waitFor("document.getElementById('recording').textContent || null") as? String)?.hasPrefix("ready to record") == true)
        try click("record:start")
        #expect(try waitFor("document.getElementById('recording').dataset.on === 'true' || null") as? Bool == true)
        #expect(try waitFor("document.querySelector('#phone .card.hit .name')?.textContent") as? String == "Core switch")
        try click("expect:card")
        _ = try browser.evaluate("document.querySelector('#phone .card.hit button[data-key=\"v\"]').click()", in: tab)
        let confirmation = try waitFor("document.querySelector('#phone .card.hit .confirmation')?.textContent") as? String
        #expect(confirmation?.hasPrefix("Verified at ") == true)
        try click("expect:card")
        try click("fault:busy")
        #expect(
            try waitFor("document.querySelector('#phone #scan .sentence')?.textContent.startsWith('The camera is busy') || null") as? Bool
                == true)
        try click("expect:sentence")
        try click("record:stop")
        let status = try waitFor(
            "document.getElementById('recording').textContent.startsWith('recorded') ? document.getElementById('recording').textContent : null"
        )
        #expect(status as? String == "recorded: Scenarios/atThePage.swift")
        #expect(rig.quit() == 0)
        #expect(rig.stdout.contains("recorded: \(root)/Scenarios/atThePage.swift"), "\(rig.stdout.suffix(800))")
        #expect(!rig.stdout.contains("replay stopped"), "\(rig.stdout.suffix(800))")
        let file = try String(contentsOfFile: "\(root)/Scenarios/atThePage.swift", encoding: .utf8)
        for step in ["openScan(.walkRound)", "expectCard(tag: \"MF-0004\"", "tapVerify()", "expectVerified()", "cameraFails(.busy)"] {
            #expect(file.contains(step), "\(step) is not in\n\(file)")
        }
        // Picked expectations stand for all: nothing else shown is expected.
        #expect(!file.contains("expectRoutes(") && !file.contains("expectOpened("), "\(file)")
        #expect(file.contains("expectSentence(") && file.contains("\"The camera is busy. Another app is using it."), "\(file)")
        // Clicked one straight after another, they are taken in the order clicked.
        let order = ["tapVerify()", "expectCard(", "cameraFails(.busy)", "expectSentence("].map { step in
            file.range(of: step, options: .backwards)?.lowerBound
        }
        #expect(order.allSatisfy { $0 != nil } && order.compactMap { $0 } == order.compactMap { $0 }.sorted(), "\(file)")
        let checked = try typecheck("\(root)/Scenarios/atThePage.swift")
        #expect(checked.status == 0, "\(checked.stderr)")
    }
}
