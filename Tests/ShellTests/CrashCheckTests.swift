import Companion
import Foundation
import Model
import Register
import Shell
import Testing

func crashFolder() -> String {
    let folder = NSTemporaryDirectory() + "fieldrig-crashcheck-\(getpid())-\(UUID().uuidString.prefix(8))"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}

@Suite("The crash harnesses' checks, on registers made to fail them")
struct CrashCheckTests {
    let t = Timestamp(year: 2026, month: 1, day: 1)

    @Test("a stamp or capture the writer reported but the register lacks, or a photograph gone, fails the check")
    func register() throws {
        let folder = crashFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let register = try Register(path: "\(folder)/r.sqlite")
        try register.apply(.demo, at: t)
        guard case .recorded(let stamp) = register.recordVerification(tag: "MF-0004", at: t) else {
            Issue.record("the stamp was refused")
            return
        }
        let capture = try register.keepCapture([1, 2, 3], tag: "MF-0004", at: t)
        var check = RegisterCrashCheck()
        check.absorb(["stamp \(stamp.id) MF-0004", "capture \(capture.id) \(capture.file) \(capture.sha256)", "garbage line"])
        try check.check(try Register(path: register.path))
        check.absorb(["stamp 999 MF-0001"])
        #expect(throws: CrashCheckFailure("reported stamps [999] are missing")) { try check.check(try Register(path: register.path)) }
        var other = RegisterCrashCheck()
        other.absorb(["capture 77 nothing.jpg 00"])
        #expect(throws: CrashCheckFailure("reported capture 77 is missing")) { try other.check(try Register(path: register.path)) }
    }

    @Test("a summary that says All sent while a photograph is not on the Mac is caught; so is a kept photograph lost")
    func queue() throws {
        let folder = crashFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let register = try Register(path: "\(folder)/r.sqlite")
        try register.apply(.demo, at: t)
        let capture = try register.keepCapture([9, 9, 9], tag: "MF-0004", at: t)
        try FileManager.default.createDirectory(atPath: "\(folder)/mac", withIntermediateDirectories: true)
        var check = QueueCrashCheck(macFolder: "\(folder)/mac")
        check.absorb(["kept \(capture.file) \(capture.sha256)"])
        try check.check(register)
        let lying: (Register) throws -> QueueSummary = { _ in QueueSummary(counts: .init(goingUp: 0, needDecision: 0, kept: 0), stall: nil)
        }
        // A summary counting nothing while a photograph waits: the counts no longer add up.
        #expect(throws: CrashCheckFailure.self) { try check.check(register, summary: lying) }
        try FileManager.default.removeItem(atPath: register.photoPath(capture))
        #expect(throws: CrashCheckFailure("the kept photograph \(capture.file) is gone from the phone")) { try check.check(register) }
    }
}
