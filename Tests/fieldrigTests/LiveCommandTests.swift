import Foundation
import Testing

@Suite("fieldrig live and tag make")
struct LiveCommandTests {
    @Test("the live shell shows the sentence, the routes and the walk-round card, and a fault's sentence")
    func live() throws {
        let run = try fieldrig(
            "live", "--camera", "Devices/sequences/walk-round", "--walk-round", "--virtual", "--seconds", "3", "--fault", "busy@2.0")
        #expect(run.status == 0)
        #expect(
            run.stdout.contains(
                "Point at an asset tag, or a pairing code on your Mac when it is running.\n  [1] Photograph a serial instead   [2] Sweep a rack instead   [3] Add it by hand"
            ))
        #expect(run.stdout.contains("  ┌ MF-0004  Core switch\n  │ Quarterly check of the comms room"))
        #expect(run.stdout.contains("2.000000 camera: busy"))
        #expect(
            run.stdout.hasSuffix(
                "The camera is busy. Another app is using it. Close it and come back, or add it by hand.\n  ┌ MF-0004  Core switch\n  │ Quarterly check of the comms room\n  │ [v] VERIFY   [o] OPEN THE RECORD   [n] NEXT\n"
            ))
    }

    @Test("tag make prints a payload the scan sheet proves, and draws it as a QR that reads back")
    func tagMake() throws {
        let png = NSTemporaryDirectory() + "fieldrig-tag-\(getpid()).png"
        defer { try? FileManager.default.removeItem(atPath: png) }
        let key = "6d616e69666573742d64656d6f2d7461672d6b65792d30303031"
        let run = try fieldrig("tag", "make", "MF-0004", "--register-id", "REG-4F2A", "--key", key, "--png", png)
        #expect(run.status == 0)
        #expect(run.stdout == "MFST-T1/REG-4F2A/MF-0004/QpAlGEzrzM6vgRjCJv7L_q1-1zNdX6BrKKZZ1Hnc7uk\n")
        let read = try fieldrig("read", "--only", "barcodes", png)
        #expect(read.stdout.contains("QR-Code    MFST-T1/REG-4F2A/MF-0004/QpAlGEzrzM6vgRjCJv7L_q1-1zNdX6BrKKZZ1Hnc7uk"))
        #expect(try fieldrig("tag", "make", "MF-0004", "--register-id", "REG-4F2A", "--key", "abc").status == 2)
    }
}
