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

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        let prepare: ((World) -> Void)? = options.has(.brokenCompanion) ? { World.offeringCameraRoutesInTrouble($0) } : nil
        let seed = UInt64(options.integer(.seed))
        let steps = options.integer(.steps)
        let runs = options.integer(.runs)
        let devices = FileManager.default.fileExists(atPath: "Devices/sequences") ? "Devices" : ScenarioPaths.devices
        let explorer = Explorer(
            runner: ScenarioRunner(devices: devices), reader: CachingReader(try LiveRead.wrapReader()), prepare: prepare)
        guard let finding = explorer.explore(seed: seed, steps: steps, runs: runs) else {
            emit("\(runs) runs of \(steps) steps (seed \(seed)): every invariant held after every step")
            return ExitCode.success
        }
        emit("run \(finding.run) of seed \(seed) broke an invariant: \(finding.failure)")
        emit("shrunk from \(finding.original) to \(finding.moves.count) steps: \(finding.shrunkFailure)\n")
        emit(finding.scenarioSource)
        return ExitCode.failure
    }
}
