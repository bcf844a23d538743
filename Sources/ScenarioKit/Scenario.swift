import Camera
import Companion
import Foundation
import MacLink
import Register

/// Where a step was written: the file and line of a scenario, for failures that point at it.
public struct StepLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int

    public var description: String {
        let short = file.range(of: "/Scenarios/").map { "Scenarios/" + file[$0.upperBound...] } ?? file
        return "\(short):\(line)"
    }
}

/// The phone at the start of a scenario.
public struct Phone: Sendable {
    /// What the camera plays: a sequence folder under Devices/sequences, or a path.
    public var camera: String
    /// What the camera plays when composed in Swift instead (`Phone(shots:)`); nil for `camera`.
    public var shots: [Shot]?
    /// Whether `camera` plays on the session's clock, as a recording made at the webcam does
    /// (`Phone(recording:)`): a camera started later picks up where the session is.
    public var playsOnSessionClock = false
    /// Faults, as `fieldrig read --fault` writes them: "busy", "stopped@2.0", "busy#10~foreground".
    public var faults: [String]
    public var register: RegisterSeed
    public var actor: String?
    public var mac: Mac

    /// The Mac at the other end.
    public enum Mac: Sendable {
        case notPaired
        /// Paired; on this network or not; what its person does with an offer.
        case paired(name: String = "Studio Mac", reachable: Bool = true, answer: MacAnswer = .accept(after: .seconds(30)))
    }

    /// The phone with faults written as text (`"busy@0.3"`); `Phone(faults: [.busy(at: 0.3)])`
    /// writes them in Swift, checked as it compiles.
    @_disfavoredOverload
    public init(
        camera: String = "walk-round", faults: [String] = [], register: RegisterSeed = .demo, actor: String? = "Sam Rivera",
        mac: Mac = .notPaired
    ) {
        self.camera = camera
        self.faults = faults
        self.register = register
        self.actor = actor
        self.mac = mac
    }
}

extension Phone {
    /// The phone with its camera's faults written in Swift: `[.busy(at: 0.3), .stopped(atFrame: 12)]`.
    public init(
        camera: String = "walk-round", faults: [CameraFault] = [], register: RegisterSeed = .demo, actor: String? = "Sam Rivera",
        mac: Mac = .notPaired
    ) {
        self.init(camera: camera, faults: faults.map(\.description), register: register, actor: actor, mac: mac)
    }

    /// The phone playing a recording made at the webcam (`fieldrig live --record-scenario NAME`):
    /// Devices/recordings/NAME (or a path), on the session's clock.
    public init(
        recording: String, faults: [CameraFault] = [], register: RegisterSeed = .demo, actor: String? = "Sam Rivera",
        mac: Mac = .notPaired
    ) {
        self.init(
            camera: recording.hasPrefix("/") ? recording : "../recordings/\(recording)", faults: faults, register: register,
            actor: actor, mac: mac)
        playsOnSessionClock = true
    }

    /// The phone with a camera composed of shots: `[.recorded("dell-latitude-hold"),
    /// .hold("tags/mf-0004.png", for: 1.0)]`, a label then a tag, with no recording of the two.
    public init(
        shots: [Shot], faults: [CameraFault] = [], register: RegisterSeed = .demo, actor: String? = "Sam Rivera", mac: Mac = .notPaired
    ) {
        self.init(camera: "composed", faults: faults, register: register, actor: actor, mac: mac)
        self.shots = shots
    }
}

/// What a person does, or what the world does, in a scenario; and what they expect to see.
public struct Step: Sendable {
    public enum Action: Sendable {
        case openScan(ScanSheet.Purpose)
        case closeScan
        case wait(Duration)
        case scan(ScanSheet.Event)
        case foreground
        case background
        case remember(String, @Sendable (World) -> String)
        case photographFileDisappears(tag: String)
        case decideUpload(tag: String, retry: Bool)
        case networkDrops(afterUploads: Int)
        case photograph(tag: String, bytes: Int)
        /// A photograph kept on the phone, not yet queued.
        case keepPhotograph(tag: String, bytes: Int)
        /// The last kept photograph of `tag` that is not queued, queued now.
        case queuePhotograph(tag: String)
        /// The Mac takes the next request, and its reply never reaches the phone.
        case macReplyLost
        /// The camera of the screen in front fails now, as the live page makes it.
        case cameraFails(CameraTrouble)
        case pushUploads
        case macReachable(Bool)
        case macDecides(accept: Bool)
        case pair
        case openHandover
        case handover(HandoverScreen.Event)
        case sendHandover
        case restartApp
        case openSweep
        case sweep(RackSweep.Event)
        case addByHand(tag: String, name: String)
        case openSerial
        case serial(SerialChooser.Event)
        case typeName(String)
        case impostor
        case impostorLeaves
        case relayPairing
        case pairing(PairingScreen.Event)
        case macAnswersPairing(matches: Bool)
        case macForgetsPhone
        case strangerSends
        case saveName
    }

    /// What a step expects to see: its check says nil when it holds, else what was seen, and
    /// throws when the check could not be made (the register or the Mac unreadable), which fails
    /// the step too.
    public struct Expectation: Sendable {
        public var summary: String
        public var check: @Sendable (World) throws -> String?

        public init(_ summary: String, _ check: @escaping @Sendable (World) throws -> String?) {
            self.summary = summary
            self.check = check
        }
    }

    /// A step does something, or looks: never both.
    public enum Kind: Sendable {
        case action(Action)
        case expectation(Expectation)

        /// An expectation, as `Step(.expect(summary, check), …)` writes it.
        public static func expect(_ summary: String, _ check: @escaping @Sendable (World) throws -> String?) -> Kind {
            .expectation(Expectation(summary, check))
        }
    }

    public var kind: Kind
    public var location: StepLocation
    /// How the step reads in a transcript.
    public var text: String

    /// What the step does; nil for an expectation.
    public var action: Action? { if case .action(let action) = kind { action } else { nil } }

    /// What the step expects; nil for an action.
    public var expectation: Expectation? { if case .expectation(let expectation) = kind { expectation } else { nil } }

    public init(_ action: Action, _ text: String, file: String, line: Int) {
        self.init(.action(action), text, file: file, line: line)
    }

    public init(_ kind: Kind, _ text: String, file: String, line: Int) {
        self.kind = kind
        self.text = text
        location = StepLocation(file: file, line: line)
    }
}

/// Builds a scenario's steps from plain Swift: sequences, loops, conditionals, functions.
@resultBuilder
public enum Steps {
    public static func buildExpression(_ step: Step) -> [Step] { [step] }
    public static func buildExpression(_ steps: [Step]) -> [Step] { steps }
    public static func buildBlock(_ parts: [Step]...) -> [Step] { parts.flatMap { $0 } }
    public static func buildArray(_ parts: [[Step]]) -> [Step] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Step]?) -> [Step] { part ?? [] }
    public static func buildEither(first: [Step]) -> [Step] { first }
    public static func buildEither(second: [Step]) -> [Step] { second }
}

/// A scenario: a named story with the rule ids it covers, a phone, and its steps.
public struct Scenario: Sendable {
    public var name: String
    public var rules: [String]
    public var phone: Phone
    public var steps: [Step]
    public var location: StepLocation

    public init(
        _ name: String, rules: [String], phone: Phone = Phone(), file: String = #filePath, line: Int = #line, @Steps _ steps: () -> [Step]
    ) {
        self.name = name
        self.rules = rules
        self.phone = phone
        self.steps = steps()
        location = StepLocation(file: file, line: line)
    }
}
