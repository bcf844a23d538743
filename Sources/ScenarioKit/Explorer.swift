import Companion
import Foundation
import Model
import Reader

/// Random legal actions and faults, the always-on invariants after every step, and the shortest
/// run that still breaks one: `fieldrig explore`, as a library.
public struct Explorer {
    public let runner: ScenarioRunner
    public let reader: any FrameReading
    /// For tests of the explorer: sets the world's seams to put a defect back.
    public let prepare: ((World) -> Void)?
    /// How many times each run is played; above 1, runs whose transcripts differ are findings.
    public let repeats: Int

    public init(runner: ScenarioRunner, reader: any FrameReading, repeats: Int = 1, prepare: ((World) -> Void)? = nil) {
        self.runner = runner
        self.reader = reader
        self.repeats = repeats
        self.prepare = prepare
    }

    /// A run that broke an invariant, shrunk, and written out as a scenario to paste.
    public struct Finding: Sendable {
        public var seed: UInt64
        public var run: Int
        public var failure: String
        /// How many moves the run had before shrinking.
        public var original: Int
        public var moves: [Move]
        public var shrunkFailure: String
        public var phoneCode: String

        /// The scenario, as Swift for `Scenarios/`.
        public var scenarioSource: String {
            (["let explored\(seed)x\(run) = Scenario(\"found by fieldrig explore --seed \(seed)\", rules: [], phone: \(phoneCode)) {"]
                + moves.map { "    \($0.code)" } + ["}"]).joined(separator: "\n")
        }
    }

    /// `runs` runs of `steps` random moves from `seed`; the first that breaks an invariant,
    /// shrunk, or nil when every invariant held. The same seed gives the same runs.
    public func explore(seed: UInt64, steps: Int, runs: Int) -> Finding? {
        survey(seed: seed, steps: steps, runs: runs).finding
    }

    /// What a survey of random runs found, and how many of its runs reached each of `milestones`.
    public struct Survey: Sendable {
        public var finding: Finding?
        public var reached: [String: Int]
        public var runs: Int
    }

    /// States worth reaching that need several moves in a row, each told by its transcript.
    public static let milestones: [(name: String, reached: @Sendable ([String]) -> Bool)] = [
        ("pairing cancelled", { $0.contains { $0.contains("Pairing did not finish: it was cancelled") } }),
        ("the pairing sheet opened in place", { $0.contains { $0.contains("pairing sheet over Send to the Mac") } }),
        (
            "an offer whose reply was lost",
            { lines in
                guard let lost = lines.firstIndex(where: { $0.contains("the Mac's reply to the next request is lost") }) else {
                    return false
                }
                return lines[lost...].contains { $0.contains("handover: Not sent yet") }
            }
        ),
    ]

    /// `explore`, counting the runs that reached each milestone on the way.
    public func survey(seed: UInt64, steps: Int, runs: Int) -> Survey {
        var random = SeededRandom(seed: seed)
        var survey = Survey(finding: nil, reached: [:], runs: 0)
        for run in 1...max(1, runs) {
            let (phone, phoneCode) = Self.randomPhone(&random)
            let moves = (0..<steps).map { _ in Self.randomMove(&random) }
            let result = runner.run(Scenario("explore", rules: [], phone: phone) { moves.map(\.step) }, reader: reader, prepare: prepare)
            survey.runs = run
            for milestone in Self.milestones where milestone.reached(result.transcript) { survey.reached[milestone.name, default: 0] += 1 }
            let check = { (moves: [Move]) in self.verdict(of: moves, phone: phone) }
            guard let failure = verdict(of: moves, phone: phone, played: result) else { continue }
            let shrunk = shrink(moves, failing: check)
            survey.finding = Finding(
                seed: seed, run: run, failure: failure, original: moves.count, moves: shrunk, shrunkFailure: check(shrunk) ?? "",
                phoneCode: phoneCode)
            break
        }
        return survey
    }

    /// A run's failure when it is a broken rule; a move that could not be carried out is not one.
    static func finding(_ failure: String?) -> String? {
        failure.flatMap { $0.contains("]: after “") ? $0 : nil }
    }

    /// What a run of moves finds: the rule it breaks, or, with `repeats` above 1, where its
    /// transcript and that of the same moves played again first differ; nil when neither.
    /// `played` is the run already played once, when there is one.
    func verdict(of moves: [Move], phone: Phone, played: ScenarioResult? = nil) -> String? {
        let scenario = Scenario("explore", rules: [], phone: phone) { moves.map(\.step) }
        let first = played ?? runner.run(scenario, reader: reader, prepare: prepare)
        if let failure = Self.finding(first.failure) { return failure }
        guard repeats > 1 else { return nil }
        for run in 2...repeats {
            let again = runner.run(scenario, reader: reader, prepare: prepare).transcript
            if let difference = Transcripts.firstDifference(first.transcript, again) {
                return "not deterministic: run 1 and run \(run) differ at \(difference)"
            }
        }
        return nil
    }

    /// The invariant a run of moves breaks, or nil. A move that could not be carried out ends the
    /// run but is not a finding: only a broken rule is.
    public func failure(of moves: [Move], phone: Phone) -> String? {
        Self.finding(
            runner.run(Scenario("explore", rules: [], phone: phone) { moves.map(\.step) }, reader: reader, prepare: prepare).failure)
    }

    /// One generated action: the Swift that writes it, and the step itself.
    public struct Move: Sendable {
        public var code: String
        public var step: Step
    }

    /// The fewest moves (removing one at a time, to a fixed point) that still break an invariant.
    public func shrink(_ moves: [Move], phone: Phone) -> [Move] {
        shrink(moves) { failure(of: $0, phone: phone) }
    }

    /// The fewest moves (removing one at a time, to a fixed point) that `failing` still finds at fault.
    func shrink(_ moves: [Move], failing: ([Move]) -> String?) -> [Move] {
        var current = moves
        var changed = true
        while changed {
            changed = false
            var i = current.count - 1
            while i >= 0 {
                var candidate = current
                candidate.remove(at: i)
                if failing(candidate) != nil {
                    current = candidate
                    changed = true
                }
                i -= 1
            }
        }
        return current
    }

    public static func randomPhone(_ random: inout SeededRandom) -> (Phone, String) {
        let cameras = [
            "walk-round", "tag-mf-0004", "tag-forged", "dell-latitude-hold", "intake-mf-0001", "desk-only", "rack-sweep", "three-tags",
            "rack-disposed", "pairing-code",
        ]
        let camera = cameras[Int.random(in: 0..<cameras.count, using: &random)]
        var faults: [String] = []
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let kind = ["denied", "no-accelerator", "busy", "stopped"][Int.random(in: 0..<4, using: &random)]
            switch Int.random(in: 0..<3, using: &random) {
            case 0 where faults.isEmpty: faults.append(kind)
            case 1: faults.append("\(kind)@\(Double(Int.random(in: 1...40, using: &random)) / 10)")
            default: faults.append("\(kind)@\(Double(Int.random(in: 1...40, using: &random)) / 10)~foreground")
            }
        }
        let macCode: String
        let mac: Phone.Mac
        switch Int.random(in: 0..<3, using: &random) {
        case 0: (mac, macCode) = (.notPaired, ".notPaired")
        case 1: (mac, macCode) = (.paired(reachable: false), ".paired(reachable: false)")
        default: (mac, macCode) = (.paired(), ".paired()")
        }
        let code = "Phone(camera: \"\(camera)\", faults: \(faults), mac: \(macCode))"
        return (Phone(camera: camera, faults: faults, mac: mac), code)
    }

    public static func randomMove(_ random: inout SeededRandom) -> Move {
        let file = "explore"
        let line = 0
        switch Int.random(in: 0..<32, using: &random) {
        case 0: return Move(code: "openScan()", step: openScan(file: file, line: line))
        case 1: return Move(code: "openScan(.walkRound)", step: openScan(.walkRound, file: file, line: line))
        case 2, 3:
            let s = Double(Int.random(in: 1...15, using: &random)) / 10
            return Move(code: "wait(\(s))", step: wait(s, file: file, line: line))
        case 4: return Move(code: "tapVerify()", step: tapVerify(file: file, line: line))
        case 5: return Move(code: "tapNext()", step: tapNext(file: file, line: line))
        case 6:
            let route = Route.allCases[Int.random(in: 0..<3, using: &random)]
            return Move(code: "tap(.\(route.rawValue))", step: tap(route, file: file, line: line))
        case 7: return Move(code: "goToBackground()", step: goToBackground(file: file, line: line))
        case 8: return Move(code: "returnToForeground()", step: returnToForeground(file: file, line: line))
        case 9:
            let tag = ["MF-0001", "MF-0004", "MF-0012"][Int.random(in: 0..<3, using: &random)]
            return Move(code: "takePhotograph(of: \"\(tag)\")", step: takePhotograph(of: tag, bytes: 4000, file: file, line: line))
        case 10: return Move(code: "pushUploads()", step: pushUploads(file: file, line: line))
        case 11: return Move(code: "macLeavesNetwork()", step: macLeavesNetwork(file: file, line: line))
        case 12: return Move(code: "macReturns()", step: macReturns(file: file, line: line))
        case 13: return Move(code: "openHandover()", step: openHandover(file: file, line: line))
        case 14: return Move(code: "tapSendIt()", step: tapSendIt(file: file, line: line))
        case 15: return Move(code: "restartApp()", step: restartApp(file: file, line: line))
        default: return Self.otherScreens(&random)
        }
    }

    /// Moves on the other screens and in the world: the chooser, the sweep, hand intake,
    /// provisioning, the handover, impostors and the network. Only moves that are legal in any
    /// state: a move that does not apply does nothing.
    static func otherScreens(_ random: inout SeededRandom) -> Move {
        let file = "explore"
        let line = 0
        switch Int.random(in: 0..<25, using: &random) {
        case 0: return Move(code: "openPhotographSerial()", step: openPhotographSerial(file: file, line: line))
        case 1: return Move(code: "tapRow(0)", step: tapRow(0, file: file, line: line))
        case 2: return Move(code: "tapUseThisSerial()", step: tapUseThisSerial(file: file, line: line))
        case 3: return Move(code: "tapScanAgain()", step: tapScanAgain(file: file, line: line))
        case 4: return Move(code: "tapCancel()", step: tapCancel(file: file, line: line))
        case 5: return Move(code: "openSweep()", step: openSweep(file: file, line: line))
        case 6: return Move(code: "confirmSweep()", step: confirmSweep(file: file, line: line))
        case 7: return Move(code: "tapSweepDone()", step: tapSweepDone(file: file, line: line))
        case 8:
            let tag = ["MF-0001", "MF-0300"][Int.random(in: 0..<2, using: &random)]
            return Move(
                code: "addByHand(tag: \"\(tag)\", name: \"Spare\")", step: addByHand(tag: tag, name: "Spare", file: file, line: line))
        case 9:
            let name = ["Sam", "Alex Kim\n", ""][Int.random(in: 0..<3, using: &random)]
            let code = name.replacingOccurrences(of: "\n", with: "\\n")
            return Move(code: "typeActorName(\"\(code)\")", step: typeActorName(name, file: file, line: line))
        case 10: return Move(code: "saveActorName()", step: saveActorName(file: file, line: line))
        case 11: return Move(code: "checkAgain()", step: checkAgain(file: file, line: line))
        case 12: return Move(code: "closeHandover()", step: closeHandover(file: file, line: line))
        case 13: return Move(code: "macAccepts()", step: macAccepts(file: file, line: line))
        case 14: return Move(code: "macDeclines()", step: macDeclines(file: file, line: line))
        case 15: return Move(code: "anImpostorAnswersForTheMac()", step: anImpostorAnswersForTheMac(file: file, line: line))
        case 16: return Move(code: "theImpostorLeaves()", step: theImpostorLeaves(file: file, line: line))
        case 17: return Move(code: "networkDropsDuringPush(after: 1)", step: networkDropsDuringPush(after: 1, file: file, line: line))
        case 18: return Move(code: "tapNumbersMatch()", step: tapNumbersMatch(file: file, line: line))
        case 19: return Move(code: "tapCancelPairing()", step: tapCancelPairing(file: file, line: line))
        case 20: return Move(code: "tapPairWithMac()", step: tapPairWithMac(file: file, line: line))
        case 21: return Move(code: "macReplyIsLost()", step: macReplyIsLost(file: file, line: line))
        case 22:
            let tag = ["MF-0001", "MF-0012"][Int.random(in: 0..<2, using: &random)]
            return Move(code: "keepPhotograph(of: \"\(tag)\")", step: keepPhotograph(of: tag, bytes: 4000, file: file, line: line))
        case 23: return Move(code: "queuePhotograph(of: \"MF-0001\")", step: queuePhotograph(of: "MF-0001", file: file, line: line))
        default: return Move(code: "tapPairingCheckAgain()", step: tapPairingCheckAgain(file: file, line: line))
        }
    }
}
