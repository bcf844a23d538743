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
        Usage: fieldrig explore [--seed N] [--steps K] [--runs R] [--repeat N]

        Builds R random scenarios of K steps from the seed (a recorded camera, faults at random
        moments, a Mac paired or not, reachable or not), each step a legal action: opening Scan or
        the walk-round, waiting, tapping VERIFY, NEXT or a route, going to the background and back,
        photographing, letting the queue push, the Mac leaving and returning, sending the register,
        checking again, restarting the app. The invariants are checked after every step. On a
        failure the run is shrunk to the fewest steps that still fail and printed as Swift, ready
        to paste into Scenarios/. The same seed explores the same runs. With --repeat N each run
        is played N times, and a run whose transcripts differ is a finding too, shrunk the same way.
        """
    static let notes = """
        Exit codes: 0 no invariant broke, 1 one did (the scenario is printed), 2 wrong usage.
        """

    enum Option: CommandOption {
        case seed, steps, runs, repeats, brokenCompanion

        var spec: OptionSpec {
            switch self {
            case .seed: .integer("--seed", "N", 0...Int.max, default: 1, "the seed (default 1)")
            case .steps: .integer("--steps", "K", 1...10_000, default: 30, "steps a run (default 30)")
            case .runs: .integer("--runs", "R", 1...100_000, default: 20, "runs (default 20)")
            case .repeats:
                .integer("--repeat", "N", 1...100, default: 1, "play each run N times; a run whose transcripts differ is a finding")
            case .brokenCompanion: .flag("--broken-companion", "removed: the broken companion lives in the explorer's tests")
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        if options.has(.brokenCompanion) {
            throw UsageError(
                "--broken-companion was removed: the tool links no broken companion. The explorer's own tests break one and see it caught (swift test --filter Explorer)"
            )
        }
        let seed = UInt64(options.integer(.seed))
        let steps = options.integer(.steps)
        let runs = options.integer(.runs)
        let devices = ScenariosCommand.devicesFolder
        let explorer = Explorer(
            runner: ScenarioRunner(devices: devices), reader: CachingReader(try LiveRead.wrapReader()), repeats: options.integer(.repeats))
        let survey = explorer.survey(seed: seed, steps: steps, runs: runs)
        let reached = Explorer.milestones.map { "\($0.name) in \(survey.reached[$0.name] ?? 0)" }.joined(separator: ", ")
        guard let finding = survey.finding else {
            emit("\(runs) runs of \(steps) steps (seed \(seed)): every invariant held after every step")
            emit("reached: \(reached) of \(survey.runs) runs")
            return ExitCode.success
        }
        emit("run \(finding.run) of seed \(seed) broke an invariant: \(finding.failure)")
        emit("shrunk from \(finding.original) to \(finding.moves.count) steps: \(finding.shrunkFailure)\n")
        emit(finding.scenarioSource)
        return ExitCode.failure
    }
}
