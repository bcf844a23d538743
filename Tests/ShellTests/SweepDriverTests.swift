import Camera
import Foundation
import Model
import Reader
import Register
import Shell
import Testing

@testable import Companion

@Suite("Rack sweeps over recorded frames")
struct SweepDriverTests {
    @Test("a sweep over a recorded rack lists every tag once, writes nothing until confirmed, then verifies them")
    func sweepWithFrames() throws {
        let folder = NSTemporaryDirectory() + "fieldrig-sweep-\(getpid())-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let register = try Register(path: "\(folder)/register.sqlite")
        try register.apply(.demo, at: Timestamp(year: 2026, month: 11, day: 1))
        let camera = try FileSequenceCamera(folder: "\(root)/Devices/sequences/rack-sweep")
        let d = try SweepDriver(camera: camera, reader: CachingReader(try FrameReader()), register: register, clock: VirtualClock())
        d.send(.opened)
        d.run(until: .seconds(10))
        #expect(d.sweep.seen.map(\.tag) == ["MF-0007", "MF-0006", "MF-0004", "MF-0005", "MF-0009", "MF-0010"])
        #expect(d.sweep.seen.filter(\.onWalkRound).map(\.tag) == ["MF-0006", "MF-0004"])
        #expect(d.pump.framesRead == 35)  // 70 frames recorded at 10 fps, taken at the sweep's 5 fps
        #expect(try register.stamps().isEmpty)  // nothing written before the person confirms (INTAKE-3)
        d.send(.tapConfirm)
        #expect(try register.stamps().map(\.tag).sorted() == ["MF-0004", "MF-0005", "MF-0006", "MF-0007", "MF-0009", "MF-0010"])
        #expect(d.closed && d.sweep.recordedCount == 6)
    }

    @Test("a sweep of many minutes keeps memory flat: only the distinct tags are held")
    func longSweep() throws {
        let folder = NSTemporaryDirectory() + "fieldrig-longsweep-\(getpid())-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "fps 10\nhold \(root)/Devices/tags/rack-1.png 1\nhold \(root)/Devices/tags/rack-3.png 1\nend loop\n"
            .write(toFile: "\(folder)/sequence", atomically: true, encoding: .utf8)
        let register = try Register(path: "\(folder)/register.sqlite")
        try register.apply(.demo, at: Timestamp(year: 2026, month: 11, day: 1))
        let d = try SweepDriver(
            camera: try FileSequenceCamera(folder: folder), reader: CachingReader(try FrameReader()), register: register,
            clock: VirtualClock())
        d.send(.opened)
        d.run(until: .seconds(60))
        let afterOne = d.sweep
        d.run(until: .seconds(600))
        #expect(d.pump.framesRead >= 2999)  // ten minutes at 5 frames a second
        #expect(d.sweep.seen == afterOne.seen && d.sweep.seen.count == 5)
        #expect(d.log.count == 1)  // the camera started; a looping recording says nothing more for ten minutes
    }
}
