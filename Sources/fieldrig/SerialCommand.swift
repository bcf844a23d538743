import Companion
import Foundation
import Imaging
import Reader
import Serials
import Shell

/// `fieldrig serial`: the serial chooser as the person would see it.
enum SerialCommand: Command {
    static let name = ["serial"]
    static let summary = "read label images and show the serial chooser's candidates"
    static let about = """
        Usage: fieldrig serial [--json] FILE...

        Reads each label image (barcodes and print in one pass), holds it in front of the serial
        chooser for its settling window, and prints the chooser as the phone draws it: "Which one
        is the serial?", then each row's value with where it was read and whether barcode and
        print agree or disagree. Agreement comes first; no scores.
        """
    static let notes = """
        Exit codes: 0 every file was read, 1 a file could not be read, 2 wrong usage.
        """

    enum Option: CommandOption {
        case json

        var spec: OptionSpec {
            switch self {
            case .json:
                .flag(
                    "--json",
                    "one object per image per line: {\"file\", \"candidates\": [{\"value\", \"where\",\n\"evidence\": \"agree\" | \"barcode\" | \"text\", \"disagreesWith\"}]}"
                )
            }
        }
    }

    static func run(_ options: Parsed<Option>) throws -> Int32 {
        guard !options.positional.isEmpty else { throw UsageError("name at least one image file") }
        var failed = false
        try BatchRead.readAll(options.positional, passes: .all, jobs: defaultJobs) { path, outcome in
            switch outcome {
            case .success(let read):
                let chooser = SerialDriver.still(read.readings)
                emit(
                    options.has(.json)
                        ? json(path, chooser) : ([path] + TerminalText.serialChooser(chooser).map { "  " + $0 }).joined(separator: "\n"))
            case .failure(let error):
                failed = true
                if options.has(.json) { emit(JSON.object([("file", .string(path)), ("error", .string(error.description))]).text) }
                printError("fieldrig: \(error)")
            }
        }
        return failed ? ExitCode.failure : ExitCode.success
    }

    static func json(_ path: String, _ chooser: SerialChooser) -> String {
        JSON.object([
            ("file", .string(path)),
            (
                "candidates",
                .array(
                    chooser.candidates.map {
                        .object([
                            ("value", .string($0.value)), ("where", .array($0.whereRead.map(JSON.string))),
                            ("evidence", .string($0.evidence.rawValue)),
                            ("disagreesWith", .array($0.disagreesWith.map(JSON.string))),
                        ])
                    })
            ),
        ]).text
    }
}
