import Companion
import Crypto
import Imaging
import MacLink
import Model
import PhoneFace
import Shell

/// Records a scenario as it runs, for `fieldrig scenarios --trace`: after each step the phone as
/// the renderer draws it, the queue and the handover, and a filmstrip of the frames the camera
/// delivered in the step with what was read on each.
///
/// A filmstrip keeps the step's first frame, every frame that read something the frame before it
/// did not, and the last; at most `framesPerStep`. Pictures are JPEG, scaled to `pictureWidth`,
/// named by their digest so a frame seen in many steps or scenarios is stored once.
public final class TraceRecorder {
    public static let framesPerStep = 12
    public static let pictureWidth = 480

    private(set) var steps: [TraceStep] = []
    /// The JPEG pictures the steps refer to, by file name ("frames/<digest>.jpg").
    public private(set) var pictures: [String: [UInt8]] = [:]
    private var kept: [(frame: Frame, readings: [Reading], at: Duration)] = []
    private var last: (frame: Frame, readings: [Reading], at: Duration)? = nil
    private var delivered = 0
    private var lastValues: Set<String>? = nil

    public init() {}

    /// What the world's cameras deliver goes to `frame`.
    func watch(_ world: World) {
        world.frameObserver = { [weak self, weak world] frame, readings in
            self?.frame(frame, readings, at: world?.clock.now ?? frame.timestamp)
        }
    }

    func frame(_ frame: Frame, _ readings: [Reading], at: Duration) {
        delivered += 1
        let values = Set(readings.map(\.value))
        if kept.isEmpty || !values.isSubset(of: lastValues ?? []) {
            if kept.count < Self.framesPerStep - 1 {
                kept.append((frame, readings, at))
                last = nil
            } else {
                last = (frame, readings, at)
            }
        } else {
            last = (frame, readings, at)
        }
        lastValues = values
    }

    /// Closes the step just run: the world after it, and the frames it saw.
    func step(_ step: Step, world: World, failure: (expected: String, seen: String)? = nil) {
        if let last { kept.append(last) }
        let context = world.scan?.sheet.context ?? world.sweep?.sweep.context
        let frames = kept.compactMap { frame, readings, at -> TraceFrame? in
            guard let name = picture(frame) else { return nil }
            return TraceFrame(
                image: "../" + name, width: frame.width, height: frame.height, at: at,
                marks: FrameMark.marks(readings, context: context))
        }
        var facts = ["Queue: " + ((try? world.queueScreen().header) ?? world.summary.lines).joined(separator: " · ")]
        if let status = world.handover?.screen.status { facts.append("Handover: \(status.heading)") }
        if let mac = world.mac, let link = world.link {
            facts.append("\(mac.name): \(link.reachable ? "on the network" : "not on the network")")
        }
        steps.append(
            TraceStep(
                clock: world.clock.now, location: step.location.description, text: step.text, phone: PhoneHTML.phone(world.phoneView),
                frames: frames, framesDelivered: delivered, world: facts, failure: failure))
        kept = []
        last = nil
        delivered = 0
    }

    private func picture(_ frame: Frame) -> String? {
        guard let jpeg = ImageFile.jpegData(frame, quality: 70, maxWidth: Self.pictureWidth) else { return nil }
        let name = "frames/\(sha256Hex(jpeg).prefix(20)).jpg"
        pictures[name] = jpeg
        return name
    }

    /// The trace of the scenario, once it ran.
    func trace(_ scenario: Scenario, failure: String?, duration: Duration) -> ScenarioTrace {
        ScenarioTrace(
            name: scenario.name, rules: scenario.rules, location: scenario.location.description, failure: failure, duration: duration,
            steps: steps)
    }
}
