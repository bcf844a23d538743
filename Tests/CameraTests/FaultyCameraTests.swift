import Foundation
import Model
import Testing

@testable import Camera

/// A camera over a 10 fps sequence of 10 frames (a, then b from 0.1 s), with `script` applied.
func faulty(_ script: FaultScript) throws -> (FaultyCamera, String) {
    let folder = try makeSequence("fps 10\nframe 0 a.png\nhold b.png 0.9\n")
    return (FaultyCamera(try FileSequenceCamera(folder: folder), script: script), folder)
}

@Suite("Fault-injecting camera")
struct FaultyCameraTests {
    @Test("every fault at start stops the camera starting, with its trouble", arguments: CameraTrouble.allCases)
    func atStart(trouble: CameraTrouble) throws {
        let (camera, folder) = try faulty(.atStart(trouble))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: trouble) { try camera.start(.label) }
        #expect(camera.nextEvent(before: .seconds(5)) == nil)
        #expect(camera.capabilities.canScan == (trouble != .cannotScan))
    }

    @Test("busy at start clears when the app returns to the foreground; the others do not")
    func foregroundClearsBusyOnly() throws {
        for trouble in CameraTrouble.allCases {
            let (camera, folder) = try faulty(.atStart(trouble))
            defer { try? FileManager.default.removeItem(atPath: folder) }
            #expect(throws: trouble) { try camera.start(.label) }
            #expect(throws: trouble) { try camera.start(.label) }  // trying again alone does not help
            camera.returnedToForeground()
            if trouble == .busy {
                try camera.start(.label)
                #expect(summary(drain(camera, until: .milliseconds(150))) == ["f0:10@0", "f1:20@0.1"])
            } else {
                #expect(throws: trouble) { try camera.start(.label) }
            }
        }
    }

    @Test("every fault kind mid-stream at a time: frames, then the trouble, then silence", arguments: CameraTrouble.allCases)
    func midStreamAtTime(trouble: CameraTrouble) throws {
        let (camera, folder) = try faulty(.at(.milliseconds(250), trouble))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try camera.start(.label)
        #expect(summary(drain(camera, until: .seconds(3))) == ["f0:10@0", "f1:20@0.1", "f2:20@0.2", "\(trouble.kind)@0.25"])
    }

    @Test("every fault kind mid-stream at a frame replaces that frame", arguments: CameraTrouble.allCases)
    func midStreamAtFrame(trouble: CameraTrouble) throws {
        let (camera, folder) = try faulty(.atFrame(3, trouble))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try camera.start(.label)
        #expect(summary(drain(camera, until: .seconds(3))) == ["f0:10@0", "f1:20@0.1", "f2:20@0.2", "\(trouble.kind)@0.3"])
    }

    @Test("a trouble that clears at a time is reported as recovered, and frames follow")
    func recoveryAtTime() throws {
        let (camera, folder) = try faulty(.at(.milliseconds(150), .busy, recovery: .at(.milliseconds(420))))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try camera.start(.label)
        #expect(
            summary(drain(camera, until: .seconds(3)))
                == [
                    "f0:10@0", "f1:20@0.1", "busy@0.15", "recovered@0.42", "f5:20@0.5", "f6:20@0.6", "f7:20@0.7", "f8:20@0.8", "f9:20@0.9",
                    "end@1",
                ])
    }

    @Test("busy mid-stream that clears on the foreground: silent, a restart refused until the foreground, then frames, and no second busy")
    func recoveryOnForeground() throws {
        let (camera, folder) = try faulty(.at(.milliseconds(150), .busy, recovery: .onForeground))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try camera.start(.label)
        #expect(summary(drain(camera, until: .seconds(3))) == ["f0:10@0", "f1:20@0.1", "busy@0.15"])
        camera.stop()
        #expect(throws: CameraTrouble.busy) { try camera.start(.label) }
        camera.returnedToForeground()
        try camera.start(.label)
        let again = summary(drain(camera, until: .seconds(3)))
        #expect(again.first == "f0:10@0" && again.last == "end@1" && again.count == 11)
    }

    @Test("faults given as text parse to the same scripts")
    func parsing() throws {
        var script = FaultScript()
        try script.add(parsing: "busy")
        #expect(script == .atStart(.busy))
        script = FaultScript()
        try script.add(parsing: "stopped@2.5~4")
        try script.add(parsing: "busy#10~foreground")
        #expect(
            script.faults == [
                Fault(.stopped(reason: "injected fault: the camera stopped"), .time(.milliseconds(2500)), recovery: .at(.seconds(4))),
                Fault(.busy, .frame(10), recovery: .onForeground),
            ])
        for bad in ["sneezing", "busy@soon", "busy@2~1", "denied~3", "busy#-1"] {
            var s = FaultScript()
            #expect(throws: SequenceError.self, "\(bad)") { try s.add(parsing: bad) }
        }
    }

    @Test("a refused fault names the part that is wrong and why")
    func refusalsSayWhy() {
        let said = { (text: String) -> String in
            var script = FaultScript()
            do { try script.add(parsing: text) } catch { return String(describing: error) }
            return "accepted"
        }
        #expect(said("sneeze@1").contains("'sneeze' is not a kind of fault (denied, no-accelerator, busy, stopped)"))
        #expect(said("busy@0.30000000000000004").contains("'0.30000000000000004' has 17 decimals and the clock keeps 6"))
        #expect(said("busy@soon").contains("after @ comes a time; 'soon' is not one"))
        #expect(said("busy#x").contains("after # comes a frame's index"))
        #expect(said("busy@1~later").contains("after ~ comes 'foreground' or a time"))
        #expect(said("busy@0.300000") == "accepted")
    }

    @Test("faults written in Swift read as the text that parses to the same script; a Double is rounded to the microsecond")
    func typed() throws {
        #expect(CameraFault.busy.description == "busy")
        #expect(CameraFault.noAccelerator.description == "no-accelerator")
        #expect(CameraFault.busy(at: 0.1 + 0.2).description == "busy@0.3")
        #expect(CameraFault.stopped(at: 2.5, clears: .at(4)).description == "stopped@2.5~4")
        #expect(CameraFault.busy(atFrame: 10, clears: .onForeground).description == "busy#10~foreground")
        #expect(CameraFault.denied(at: 1.000_000_4).description == "denied@1")
        #expect(CameraFault.denied(at: 1.000_000_6).description == "denied@1.000001")
        var script = FaultScript()
        try script.add(parsing: CameraFault.stopped(at: 2.5, clears: .at(4)).description)
        try script.add(parsing: CameraFault.busy(atFrame: 10, clears: .onForeground).description)
        #expect(
            script.faults == [
                Fault(.stopped(reason: "injected fault: the camera stopped"), .time(.milliseconds(2500)), recovery: .at(.seconds(4))),
                Fault(.busy, .frame(10), recovery: .onForeground),
            ])
        var negative = FaultScript()
        #expect(throws: SequenceError.self) { try negative.add(parsing: CameraFault.busy(at: -1).description) }
    }

    @Test("the same script over the same recording gives the same events on every run")
    func deterministic() throws {
        var script = FaultScript()
        try script.add(parsing: "stopped@0.35~0.6")
        try script.add(parsing: "busy#8")
        var runs: [[String]] = []
        for _ in 0..<3 {
            let (camera, folder) = try faulty(script)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try camera.start(.label)
            runs.append(summary(drain(camera, until: .seconds(3), tick: .milliseconds(7))))
        }
        #expect(
            runs[0] == [
                "f0:10@0", "f1:20@0.1", "f2:20@0.2", "f3:20@0.3", "stopped@0.35", "recovered@0.6", "f6:20@0.6", "f7:20@0.7", "busy@0.8",
            ])
        #expect(runs.allSatisfy { $0 == runs[0] })
    }
}
