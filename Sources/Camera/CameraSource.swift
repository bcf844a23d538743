import Foundation
import Model

/// Where frames come from, as a person names it on the command line or in a scenario.
public enum CameraSource: Sendable, Hashable, CustomStringConvertible {
    /// A V4L2 device, e.g. /dev/video0.
    case device(String)
    /// A folder holding a `sequence` file (or images, played in name order).
    case sequence(String)

    /// Any character device (a webcam at /dev/videoN) or the fake device's file is a camera; a
    /// folder is a recorded sequence. What is neither is named, with what to give instead.
    public init(parsing text: String) throws(SequenceError) {
        var isFolder: ObjCBool = false
        var info = stat()
        let found = stat(text, &info) == 0
        if found, info.st_mode & S_IFMT == S_IFCHR {
            self = .device(text)
        } else if found, info.st_mode & S_IFMT == S_IFREG, (text as NSString).lastPathComponent.hasPrefix("video") {
            // A device file served in user space (the fake V4L2 device's video0 over FUSE).
            self = .device(text)
        } else if found, info.st_mode & S_IFMT == S_IFDIR {
            self = .sequence(text)
        } else if text.hasPrefix("/dev/") {
            throw SequenceError(
                "\(text): no such camera device. 'fieldrig cameras' lists the devices present; check the camera is plugged in.")
        } else if FileManager.default.fileExists(atPath: text, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw SequenceError("\(text): not a camera. Give a V4L2 device (/dev/videoN) or a sequence folder.")
            }
            self = .sequence(text)
        } else {
            throw SequenceError(
                "\(text): no such device or folder. Give a V4L2 device (/dev/videoN) or a sequence folder; 'fieldrig cameras' lists devices."
            )
        }
    }

    /// The camera for this source, with `faults` applied when there are any; a sequence played on
    /// the session's clock (`onSessionClock` says the session's time) when one is given.
    public func open(faults: FaultScript = .none, onSessionClock now: (() -> Duration)? = nil) throws(SequenceError) -> any CameraDevice {
        var camera: any CameraDevice
        switch self {
        case .device(let path): camera = V4L2Camera(path: path)
        case .sequence(let folder): camera = try FileSequenceCamera(folder: folder)
        }
        if let now, case .sequence = self { camera = SessionClockCamera(camera, now: now) }
        return faults == .none ? camera : FaultyCamera(camera, script: faults)
    }

    public var description: String {
        switch self {
        case .device(let path), .sequence(let path): return path
        }
    }
}

extension FaultScript {
    /// The fault kinds as a person writes them.
    public static let kindNames: [(name: String, trouble: CameraTrouble)] = [
        ("denied", .accessOff), ("no-accelerator", .cannotScan), ("busy", .busy),
        ("stopped", .stopped(reason: "injected fault: the camera stopped")),
    ]

    /// Adds one fault written as `KIND` (at start), `KIND@SECONDS` or `KIND#FRAME` (mid-stream),
    /// optionally followed by `~SECONDS` (clears then) or `~foreground` (clears when the app
    /// returns to the foreground). KIND is denied, no-accelerator, busy or stopped.
    public mutating func add(parsing text: String) throws(SequenceError) {
        func fail(_ why: String) -> SequenceError { SequenceError("'\(text)' is not a fault: \(why)") }
        var spec = Substring(text)
        var recovery = Recovery.never
        if let tilde = spec.firstIndex(of: "~") {
            let until = String(spec[spec.index(after: tilde)...])
            if until == "foreground" {
                recovery = .onForeground
            } else if let time = parseSeconds(until) {
                recovery = .at(time)
            } else {
                throw fail("after ~ comes 'foreground' or a time; \(Self.timeProblem(until))")
            }
            spec = spec[..<tilde]
        }
        let marker = spec.firstIndex { $0 == "@" || $0 == "#" }
        let kind = String(marker.map { spec[..<$0] } ?? spec)
        guard let trouble = Self.kindNames.first(where: { $0.name == kind })?.trouble else {
            throw fail(
                "'\(kind)' is not a kind of fault (\(Self.kindNames.map(\.name).joined(separator: ", "))). Write KIND, KIND@SECONDS or KIND#FRAME, optionally ~SECONDS or ~foreground."
            )
        }
        guard let marker else {
            guard atStart == nil else { throw SequenceError("'\(text)': only one fault can stop the camera starting.") }
            atStart = trouble
            clearsOnForeground = recovery == .onForeground || (trouble == .busy && recovery == .never)
            if case .at = recovery { throw SequenceError("'\(text)': a fault at start clears on the foreground or never, not at a time.") }
            return
        }
        let value = String(spec[spec.index(after: marker)...])
        if spec[marker] == "@" {
            guard let time = parseSeconds(value) else { throw fail("after @ comes a time; \(Self.timeProblem(value))") }
            if case .at(let end) = recovery, end <= time { throw SequenceError("'\(text)': it must clear after it starts.") }
            faults.append(Fault(trouble, .time(time), recovery: recovery))
        } else {
            guard !value.isEmpty, value.utf8.count <= 9, value.utf8.allSatisfy({ (48...57).contains($0) }), let index = Int(value) else {
                throw fail("after # comes a frame's index, a whole number from 0 like 12, not '\(value)'.")
            }
            faults.append(Fault(trouble, .frame(index), recovery: recovery))
        }
    }

    /// Why `text` is not a time a fault can be written with.
    static func timeProblem(_ text: String) -> String {
        let decimals = text.split(separator: ".", maxSplits: 1).dropFirst().first?.count ?? 0
        if decimals > 6, parseSeconds(String(text.prefix(text.count - decimals + 6))) != nil {
            return "'\(text)' has \(decimals) decimals and the clock keeps 6 (microseconds): round it, "
                + "or write the fault in Swift (.busy(at: seconds)), which rounds."
        }
        return "'\(text)' is not one: write seconds from 0 to 86400 like 0.25, at most 6 decimals."
    }
}
