import Companion
import Foundation
import Reader
import ScenarioKit

/// `fieldrig explore`: random legal actions and faults, the invariants after each; a failure is
/// shrunk and printed as a scenario ready to paste into Scenarios/.
enum ExploreCommand: Command {
    static let name = ["explore"]
    static let summary = "random actions and faults, invariants after each; failures shrunk into a Swift scenario"
    static let about = """
        Usage: fieldrig explore [--seed N] [--steps K] [--runs R]

        Builds R random scenarios of K steps from the seed (a recorded camera, faults at random
        moments, a Mac paired or not, reachable or not), each step a legal action: opening Scan or
        the walk-round, waiting, tapping VERIFY, NEXT or a route, going to the background and back,
        photographing, letting the queue push, the Mac leaving and returning, sending the register,
        checking again, restarting the app. The invariants are checked after every step. On a
        failure the run is shrunk to the fewest steps that still fail and printed as Swift, ready
        to paste into Scenarios/. The same seed explores the same runs.
        """
    static let notes = """
        Exit codes: 0 no invariant broke, 1 one did (the scenario is printed), 2 wrong usage.
        """

    enum Option: CommandOption {
        case seed, steps, runs, brokenCompanion

        var spec: OptionSpec {
            switch self {
            case .seed: .integer("--seed", "N", 0...Int.max, default: 1, "the seed (default 1)")
            case .steps: .integer("--steps", "K", 1...10_000, default: 30, "steps a run (default 30)")
            case .runs: .integer("--runs", "R", 1...100_000, default: 20, "runs (default 20)")
            case .brokenCompanion:
                .flag(
                    "--broken-companion",
                    "stand a deliberately broken double in for the scan sheet (it offers the\ncamera routes in trouble states), to see the explorer catch and shrink it"
                )
            }
        }
    }

    /// One generated action: the Swift that writes it, and the step itself.
    struct Move {
        var code: String
        var step: Step
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        let prepare: ((World) -> Void)? =
            options.has(.brokenCompanion)
            ? { world in
                world.scanScreenDouble = { screen in
                    var broken = screen
                    if broken.card == nil { broken.routes = Route.allCases }
                    return broken
                }
            } : nil
        let seed = UInt64(options.integer(.seed))
        let steps = options.integer(.steps)
        let runs = options.integer(.runs)
        let reader = CachingReader(try LiveRead.wrapReader())
        let devices = FileManager.default.fileExists(atPath: "Devices/sequences") ? "Devices" : ScenarioPaths.devices
        let runner = ScenarioRunner(devices: devices)
        var random = SeededRandom(seed: seed)
        for run in 1...runs {
            let (phone, phoneCode) = randomPhone(&random)
            let moves = (0..<steps).map { _ in randomMove(&random) }
            let result = runner.run(
                Scenario("explore \(seed)/\(run)", rules: [], phone: phone) { moves.map(\.step) }, reader: reader, prepare: prepare)
            guard let failure = result.failure else { continue }
            let shrunk = shrink(moves, phone: phone, runner: runner, reader: reader, prepare: prepare)
            let final = runner.run(Scenario("explore", rules: [], phone: phone) { shrunk.map(\.step) }, reader: reader, prepare: prepare)
            emit("run \(run) of seed \(seed) broke an invariant: \(failure)")
            emit("shrunk from \(moves.count) to \(shrunk.count) steps: \(final.failure ?? "")\n")
            emit("let explored\(seed)x\(run) = Scenario(\"found by fieldrig explore --seed \(seed)\", rules: [], phone: \(phoneCode)) {")
            for move in shrunk { emit("    \(move.code)") }
            emit("}")
            return ExitCode.failure
        }
        emit("\(runs) runs of \(steps) steps (seed \(seed)): every invariant held after every step")
        return ExitCode.success
    }

    /// The fewest moves (removing one at a time, to a fixed point) that still break an invariant.
    static func shrink(_ moves: [Move], phone: Phone, runner: ScenarioRunner, reader: any FrameReading, prepare: ((World) -> Void)?)
        -> [Move]
    {
        var current = moves
        var changed = true
        while changed {
            changed = false
            var i = current.count - 1
            while i >= 0 {
                var candidate = current
                candidate.remove(at: i)
                if runner.run(Scenario("shrink", rules: [], phone: phone) { candidate.map(\.step) }, reader: reader, prepare: prepare)
                    .failure != nil
                {
                    current = candidate
                    changed = true
                }
                i -= 1
            }
        }
        return current
    }

    static func randomPhone(_ random: inout SeededRandom) -> (Phone, String) {
        let cameras = ["walk-round", "tag-mf-0004", "tag-forged", "dell-latitude-hold", "intake-mf-0001", "desk-only", "rack-sweep"]
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

    static func randomMove(_ random: inout SeededRandom) -> Move {
        let file = "explore"
        let line = 0
        switch Int.random(in: 0..<16, using: &random) {
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
        default: return Move(code: "restartApp()", step: restartApp(file: file, line: line))
        }
    }
}
