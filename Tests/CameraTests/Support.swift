import Foundation
import Imaging
import Model

@testable import Camera

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// A fresh temporary folder, removed by the caller.
func temporaryFolder(_ name: String) -> String {
    let path = NSTemporaryDirectory() + "fieldrig-\(name)-\(getpid())-\(UUID().uuidString.prefix(8))"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A small gray frame whose every pixel says which frame it is.
func solidFrame(_ value: UInt8, width: Int = 8, height: Int = 6) -> Frame {
    Frame(width: width, height: height, bytes: (0..<width * height).map { value &+ UInt8(truncatingIfNeeded: $0) })
}

/// A sequence folder with PNGs a.png, b.png, c.png (values 10, 20, 30) and this description.
func makeSequence(_ description: String) throws -> String {
    let folder = temporaryFolder("seq")
    for (name, value) in [("a", UInt8(10)), ("b", 20), ("c", 30)] {
        try ImageFile.writePNG(solidFrame(value), to: "\(folder)/\(name).png")
    }
    try description.write(toFile: "\(folder)/sequence", atomically: true, encoding: .utf8)
    return folder
}

/// Every event before `deadline`, asking as a shell does: each deadline a tick apart.
func drain(_ camera: any CameraDevice, until deadline: Duration, tick: Duration = .milliseconds(10)) -> [CameraEvent] {
    var events: [CameraEvent] = []
    var now = Duration.zero
    while now < deadline {
        now += tick
        while let event = camera.nextEvent(before: min(now, deadline)) { events.append(event) }
    }
    return events
}

extension [CameraEvent] {
    /// The frames among these events, in order.
    var frames: [Frame] { compactMap { if case .frame(let f) = $0 { f } else { nil } } }
}

/// A compact, readable form of an event list: "f0@0", "busy@1.5", "recovered@2", "end@3".
func summary(_ events: [CameraEvent]) -> [String] {
    events.map { event in
        let t = formatSeconds(event.time).replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
        switch event {
        case .frame(let frame): return "f\(frame.index):\(frame.bytes[0])@\(t)"
        case .trouble(let trouble, _): return "\(trouble.kind)@\(t)"
        case .recovered: return "recovered@\(t)"
        case .ended: return "end@\(t)"
        }
    }
}
