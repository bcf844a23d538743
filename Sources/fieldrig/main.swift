import Foundation
import Reader

#if canImport(Glibc)
    import Glibc
#endif

/// Each command's name and summary, the names padded to the longest and two spaces more.
let commandTable: String = {
    let width = (commands.map { $0.name.joined(separator: " ").count }.max() ?? 0) + 2
    return commands.map { "  " + $0.name.joined(separator: " ").padding(toLength: width, withPad: " ", startingAt: 0) + $0.summary }
        .joined(separator: "\n")
}()

let overview = """
    fieldrig: the Manifest field rig, the iPhone companion's rules run on Linux.

    Usage: fieldrig COMMAND [options]

    Commands:
    \(commandTable)

    Run 'fieldrig COMMAND --help' for a command's options.
    """

/// Tesseract's OpenMP threads make it about 5x slower on this machine unless OMP_THREAD_LIMIT=1
/// is in the environment when the process starts (setting it later is too late), so the tool
/// re-executes itself once with it set.
func limitThreadsOrReexecute() {
    guard !ThreadLimit.isInEffect else { return }
    setenv(ThreadLimit.variable, "1", 1)
    var argv = CommandLine.arguments.map { strdup($0) } + [nil]
    execv("/proc/self/exe", &argv)
    // execv only returns on failure; carry on, slower but correct.
}

/// A parent (a test runner, a shell) may have started us with signals blocked; SIGTERM and
/// Ctrl-C must still end the tool.
func unblockSignals() {
    var none = sigset_t()
    sigemptyset(&none)
    sigprocmask(SIG_SETMASK, &none, nil)
}

@MainActor func main() -> Int32 {
    unblockSignals()
    // A reader that goes away (`| head`) is a write error to report, not a signal to die of.
    signal(SIGPIPE, SIG_IGN)
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.isEmpty || ["-h", "--help", "help"].contains(arguments[0]) {
        emit(overview)
        return arguments.isEmpty ? ExitCode.usage : ExitCode.success
    }
    // The longest command name that the arguments start with.
    let matching = commands.filter { arguments.starts(with: $0.name) }.max { $0.name.count < $1.name.count }
    guard let command = matching else {
        let family = commands.filter { $0.name.count > 1 && $0.name[0] == arguments[0] }
        if !family.isEmpty {
            printError(
                "fieldrig \(arguments[0]) needs one of: \(family.map { $0.name.dropFirst().joined(separator: " ") }.joined(separator: ", ")). Run 'fieldrig --help'."
            )
            return ExitCode.usage
        }
        printError("fieldrig: unknown command '\(arguments[0])'. Run 'fieldrig --help' for the list.")
        return ExitCode.usage
    }
    let rest = Array(arguments.dropFirst(command.name.count))
    if command.asksForHelp(rest) {
        emit(command.help)
        return ExitCode.success
    }
    limitThreadsOrReexecute()
    do {
        return try command.run(arguments: rest)
    } catch let error as UsageError {
        printError(
            "fieldrig \(command.name.joined(separator: " ")): \(error). Run 'fieldrig \(command.name.joined(separator: " ")) --help'.")
        return ExitCode.usage
    } catch {
        printError("fieldrig \(command.name.joined(separator: " ")): \(error)")
        return ExitCode.failure
    }
}

exit(main())
