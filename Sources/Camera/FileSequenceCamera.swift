import Imaging
import Model

/// Plays a `FrameSequence` as a camera: each frame at its recorded time, then ends or loops.
///
/// Every frame file is decoded once when the camera is made, so a corrupt file is reported then,
/// naming it, and not in the middle of a scenario. Up to `cacheLimit` distinct frames are kept
/// decoded; a longer recording is decoded again as it plays, so memory stays flat. In the sweep
/// set-up frames come no faster than the set-up's rate; the rest are skipped, as a camera running
/// at a lower rate would never have taken them. A frame file that can no longer be read when its
/// turn comes stops the camera with the file named in the log reason.
public final class FileSequenceCamera: CameraDevice {
    public let sequence: FrameSequence
    public let name: String
    public let capabilities: CameraCapabilities

    private var cache: [String: Frame] = [:]
    private var position = 0  // next entry to deliver
    private var pass = 0  // completed passes of a looping sequence
    private var started = false
    private var setup = CameraSetup.label
    private var lastDelivered: Duration? = nil
    private var endReported = false

    /// The most distinct frames kept decoded in memory.
    public static let cacheLimit = 64

    /// A camera playing the sequence in `folder`; throws for a bad description or frame file.
    public convenience init(folder: String, capabilities: CameraCapabilities? = nil) throws(SequenceError) {
        try self.init(sequence: FrameSequence(folder: folder), capabilities: capabilities)
    }

    public init(sequence: FrameSequence, capabilities: CameraCapabilities? = nil) throws(SequenceError) {
        self.sequence = sequence
        name = sequence.folder
        var files: [String] = []
        var seen = Set<String>()
        for entry in sequence.entries where seen.insert(entry.file).inserted { files.append(entry.file) }
        var first: Frame? = nil
        for file in files {
            let path = FrameSequence.resolve(file, in: sequence.folder)
            let frame: Frame
            do {
                frame = try DecodedFrames.load(path)
            } catch {
                throw SequenceError("\(sequence.listing(sequence.entries.first { $0.file == file }!)): \(error)")
            }
            if first == nil { first = frame }
            if files.count <= Self.cacheLimit { cache[file] = frame }
        }
        let rate = Self.framesPerSecond(sequence)
        self.capabilities =
            capabilities
            ?? CameraCapabilities(
                canScan: true, hasTorch: true, modes: [CameraMode(width: first!.width, height: first!.height, framesPerSecond: rate)])
    }

    public func start(_ setup: CameraSetup) throws(CameraTrouble) {
        self.setup = setup
        position = 0
        pass = 0
        lastDelivered = nil
        endReported = false
        started = true
    }

    public func stop() {
        started = false
    }

    public func nextEvent(before deadline: Duration) -> CameraEvent? {
        guard started else { return nil }
        while true {
            if position == sequence.entries.count {
                if sequence.ending == .loop {
                    position = 0
                    pass += 1
                } else {
                    let end = offset + sequence.entries.last!.time + sequence.tail
                    guard !endReported, end < deadline else { return nil }
                    endReported = true
                    return .ended(at: end)
                }
            }
            let entry = sequence.entries[position]
            let time = offset + entry.time
            guard time < deadline else { return nil }
            position += 1
            // The sweep's low rate skips the frames a camera running at that rate would not take.
            if setup.purpose == .sweep, let last = lastDelivered {
                let interval = Duration.microseconds(1_000_000 / max(1, setup.framesPerSecond))
                if time - last < interval - .microseconds(500) { continue }
            }
            lastDelivered = time
            guard var frame = cache[entry.file] ?? (try? ImageFile.load(FrameSequence.resolve(entry.file, in: sequence.folder))) else {
                // Decoded when the camera was made, so the file has changed or gone since.
                started = false
                return .trouble(
                    .stopped(reason: "frame file \(FrameSequence.resolve(entry.file, in: sequence.folder)) can no longer be read"), at: time
                )
            }
            frame.timestamp = time
            frame.index = pass * sequence.entries.count + position - 1
            return .frame(frame)
        }
    }

    /// Where the current pass starts.
    private var offset: Duration { sequence.length * pass }

    /// The recording's own rate: frames per second between its first two frames.
    static func framesPerSecond(_ sequence: FrameSequence) -> Int {
        guard sequence.entries.count > 1 else { return 30 }
        let gap = sequence.entries[1].time - sequence.entries[0].time
        let micros = gap.inMicroseconds
        return micros > 0 ? Int((1_000_000.0 / Double(micros)).rounded()) : 30
    }
}
