import Foundation
import Testing

@testable import fieldrig

/// Options for the parser's own tests.
enum SampleOption: CommandOption {
    case json, runs, camera, fault, hook

    var spec: OptionSpec {
        switch self {
        case .json: .flag("--json", "one object a line")
        case .runs: .integer("--runs", "N", 1...100, default: 5, "how many runs")
        case .camera: .value("--camera", "SOURCE", "where frames come from")
        case .fault: .repeated("--fault", "FAULT", "a fault")
        case .hook: .value("--hook", "X", "for tests", hidden: true)
        }
    }
}

enum SampleCommand: Command {
    typealias Option = SampleOption
    static let name = ["sample"]
    static let summary = "a sample"
    static let about = "Usage: fieldrig sample"
    static func run(_ options: Parsed<SampleOption>) throws -> Int32 { 0 }
}

@Suite("Options declared once: parsing, checking and help")
struct OptionsTests {
    @Test("values are read by their declaration; defaults come from it; repeats are kept in order")
    func parse() throws {
        let parsed = try Parsed<SampleOption>([
            "--json", "--runs=7", "--camera", "/dev/video0", "--fault", "busy", "--fault", "stopped@2", "a.png",
        ])
        #expect(parsed.has(.json) && parsed.integer(.runs) == 7 && parsed.value(.camera) == "/dev/video0")
        #expect(parsed.all(.fault) == ["busy", "stopped@2"] && parsed.positional == ["a.png"])
        let defaults = try Parsed<SampleOption>([])
        #expect(defaults.integer(.runs) == 5 && !defaults.given(.runs) && defaults.value(.camera) == nil)
        #expect(try Parsed<SampleOption>(["--", "--json"]).positional == ["--json"])
    }

    @Test("unknown options, missing or empty values, numbers out of range or in other scripts are usage errors, before anything runs")
    func refused() {
        let cases: [([String], String)] = [
            (["--jsno"], "unknown option --jsno"),
            (["--camera"], "--camera needs a value"),
            (["--camera", ""], "--camera needs a value, not an empty one"),
            (["--camera="], "--camera needs a value, not an empty one"),
            (["--json=yes"], "--json takes no value"),
            (["--runs", "0"], "--runs takes a whole number from 1 to 100, not '0'"),
            (["--runs", "٣"], "--runs takes a whole number from 1 to 100, not '٣'"),
            (["--runs", "0.½"], "--runs takes a whole number from 1 to 100, not '0.½'"),
            (["--runs", "99999999999999999999999"], "--runs takes a whole number from 1 to 100, not '99999999999999999999999'"),
            (["--camera", "a", "--camera", "b"], "--camera is given twice"),
        ]
        for (arguments, message) in cases {
            #expect(throws: UsageError(message), "\(arguments)") { try Parsed<SampleOption>(arguments) }
        }
    }

    @Test("the help lists every option but the hidden ones, from the same declarations")
    func help() {
        let help = SampleCommand.help
        for option in SampleOption.allCases where !option.spec.hidden { #expect(help.contains(option.spec.left), "\(option)") }
        #expect(!help.contains("--hook"))
        #expect(help.contains("  --runs N          how many runs"))
    }

    @Test("every command declares each option once, with a name, a help line, and a help text that lists it")
    func everyCommand() {
        for command in commands {
            let help = command.help
            #expect(help.hasPrefix("Usage: fieldrig " + command.name.joined(separator: " ")), "\(command.name)")
            let wellFormed = checkOptions(command)
            #expect(wellFormed, "\(command.name)")
            #expect(help.contains("  -h, --help"), "\(command.name)")
        }
    }
}

/// Whether a command's declared options are well formed and all in its help.
func checkOptions<C: Command>(_ command: C.Type) -> Bool {
    let specs = C.Option.allCases.map(\.spec)
    let names = specs.map(\.name)
    return Set(names).count == names.count && names.allSatisfy { $0.hasPrefix("--") && $0.count > 2 }
        && specs.allSatisfy { !$0.help.isEmpty && ($0.hidden || C.help.contains($0.left)) }
}

@Suite("fieldrig --help")
struct HelpTests {
    @Test("the overview's summaries start in one column, past the longest command name")
    func aligned() throws {
        let run = try fieldrig("--help")
        #expect(run.status == 0)
        let rows = run.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
        #expect(rows.count >= 25)
        // Where each row's summary starts: past the name and the gap of spaces after it.
        func summaryColumn(_ row: Substring) -> Int? {
            let body = row.dropFirst(2)
            guard let gap = body.range(of: "  ") else { return nil }
            return body[gap.lowerBound...].firstIndex { $0 != " " }.map { row.distance(from: row.startIndex, to: $0) }
        }
        let columns = Set(rows.map(summaryColumn))
        #expect(columns.count == 1 && columns.first! != nil)
        #expect(run.stdout.contains("  crash register   kill a process"))
    }

    @Test("-h given as an option's value is that value, not a call for help")
    func helpAsValue() throws {
        let run = try fieldrig("live", "--camera", "Devices/sequences/tag-mf-0004", "--web", "0", "--web-token", "-h")
        #expect(run.status == 2)
        #expect(run.stderr.contains("--web-token takes 16 to 256 letters, digits and '-._~', not '-h'"))
        let help = try fieldrig("live", "--camera", "Devices/sequences/tag-mf-0004", "-h")
        #expect(help.status == 0 && help.stdout.hasPrefix("Usage: fieldrig live"))
    }
}
