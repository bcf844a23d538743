import Camera
import Imaging
import Model
import Reader

/// A frame the camera delivered, read as far as its screen asks: its barcodes first (what a
/// proven code fires on), then, only if asked for, everything, printed text included, going on
/// from the barcode pass.
public final class FrameInHand {
    public let frame: Frame
    private let reader: any FrameReading
    private var codes: [Reading]? = nil
    private var whole: [Reading]? = nil

    init(_ frame: Frame, reader: any FrameReading) {
        self.frame = frame
        self.reader = reader
    }

    /// The barcode pass, read once.
    public var barcodes: [Reading] {
        if let codes { return codes }
        let read = reader.readBarcodes(frame)
        codes = read
        return read
    }

    /// Every reading, printed text included, read once.
    public var readings: [Reading] { readings(secondLooks: true) }

    /// Every reading, printed text included, with or without the reader's second looks; read
    /// once (a frame read already is not read again).
    public func readings(secondLooks: Bool) -> [Reading] {
        if let whole { return whole }
        _ = barcodes
        let read = reader.read(frame, secondLooks: secondLooks)
        whole = read
        return read
    }

    /// Whether the text pass ran on it.
    public var textRead: Bool { whole != nil }

    /// What was read of it: everything when the text pass ran, else its barcodes.
    var read: [Reading] { whole ?? codes ?? [] }
}

/// Pumps a camera on a session clock: starts and stops it, and turns its events (on the camera's
/// own clock) into session-time callbacks, reading each frame in one pass. Shared by the drivers
/// of every screen that looks through the camera.
public final class CameraPump {
    public let camera: any CameraDevice
    public let reader: any FrameReading
    public let clock: any SessionClock
    private var startedAt: Duration? = nil
    /// Frames read since the pump was made (for barcodes at least).
    public private(set) var framesRead = 0
    /// Of those, the frames whose printed text was read too.
    public private(set) var framesTextRead = 0
    /// Frames skipped unread because a newer one was already due (a slow reader on a real clock).
    public private(set) var framesDropped = 0
    /// How many times the camera was asked to start.
    public private(set) var startsTried = 0
    /// Called with every frame read and what was read of it (its barcodes, or everything when
    /// its screen asked for the text), once it was delivered: what the live page shows and what a
    /// scenario trace keeps.
    public var observer: ((Frame, [Reading]) -> Void)? = nil

    public enum Event {
        case frame(FrameInHand, at: Duration)
        case trouble(CameraTrouble)
        case recovered
        case ended
    }

    public init(camera: any CameraDevice, reader: any FrameReading, clock: any SessionClock) {
        self.camera = camera
        self.reader = reader
        self.clock = clock
    }

    /// Starts the camera in `setup`; its trouble if it cannot start.
    public func start(_ setup: CameraSetup) -> CameraTrouble? {
        startsTried += 1
        do {
            try camera.start(setup)
            startedAt = clock.now
            return nil
        } catch {
            startedAt = nil
            return error
        }
    }

    public func stop() {
        camera.stop()
        startedAt = nil
    }

    public var isRunning: Bool { startedAt != nil }

    /// Delivers every camera event before `time`, moving the clock to each, then to `time`.
    ///
    /// On a real clock a reader slower than the camera falls behind it: when later frames are
    /// already due by the time a frame would be read, the newest is read and the others are
    /// dropped and counted (`framesDropped`), so what the person sees is what the camera sees
    /// now, never a backlog. A virtual clock never runs ahead of a frame, so scenarios read
    /// every frame.
    public func run(until time: Duration, _ deliver: (Event) -> Void) {
        var queued: CameraEvent? = nil
        while let started = startedAt {
            guard let event = queued ?? camera.nextEvent(before: time - started) else { break }
            queued = nil
            let at = started + event.time
            clock.advance(to: at)
            switch event {
            case .frame(var frame):
                while clock.now > started + frame.timestamp, let later = camera.nextEvent(before: min(time, clock.now) - started) {
                    guard case .frame(let newer) = later else {
                        queued = later
                        break
                    }
                    framesDropped += 1
                    frame = newer
                }
                framesRead += 1
                let inHand = FrameInHand(frame, reader: reader)
                deliver(.frame(inHand, at: max(at, started + frame.timestamp)))
                if inHand.textRead { framesTextRead += 1 }
                observer?(frame, inHand.read)
            case .trouble(let trouble, _):
                // A camera that keeps trying on its own is still asked, for its recovery.
                if !camera.recoversOnItsOwn { startedAt = nil }
                deliver(.trouble(trouble))
            case .recovered:
                deliver(.recovered)
            case .ended:
                startedAt = nil
                deliver(.ended)
            }
        }
        clock.advance(to: time)
    }

    /// Starts the camera in `setup` for a screen's driver: the trouble (noted) if it cannot start.
    public func start(_ setup: CameraSetup, note: (String) -> Void) -> CameraTrouble? {
        if let trouble = start(setup) {
            note("camera: \(trouble)")
            return trouble
        }
        note("camera: started (\(setup.purpose.rawValue))")
        return nil
    }

    /// Stops the camera for a screen's driver, noting it.
    public func stop(note: (String) -> Void) {
        stop()
        note("camera: stopped")
    }

    /// Pumps until `time` for a screen's driver: frames go to `frame`, which reads of each what
    /// its screen needs; troubles and recoveries are noted and go to `failed` and `recovered`.
    public func drive(
        until time: Duration, note: (String) -> Void, frame: (FrameInHand, Duration) -> Void, failed: (CameraTrouble) -> Void,
        recovered: () -> Void
    ) {
        run(until: time) { event in
            switch event {
            case .frame(let inHand, let at): frame(inHand, at)
            case .trouble(let trouble):
                note("camera: \(trouble)")
                failed(trouble)
            case .recovered:
                note("camera: recovered")
                recovered()
            case .ended: note("camera: the recording ended")
            }
        }
    }
}
