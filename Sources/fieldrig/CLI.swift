import Durable
import Foundation

/// A subcommand of `fieldrig`: its name, its help, its options declared once, and what it does.
protocol Command: SendableMetatype {
    /// The command's options, one case each, each with its spec: the parser, the help and the
    /// checks of values all come from it.
    associatedtype Option: CommandOption = NoOption
    /// The words that name it, e.g. ["bench", "read"].
    static var name: [String] { get }
    /// One line for the overview.
    static var summary: String { get }
    /// The usage lines and what the command does, before the list of options.
    static var about: String { get }
    /// Anything after the options: exit codes, notes.
    static var notes: String { get }
    /// Runs with the parsed options; returns the exit code.
    static func run(_ options: Parsed<Option>) throws -> Int32
}

extension Command {
    static var notes: String { "" }

    /// The whole `--help` text: what it does, then every option that is not hidden, from its spec.
    static var help: String {
        let visible = Option.allCases.map(\.spec).filter { !$0.hidden }
        var lines = ["Options:"]
        let width = max(18, (visible.map { $0.left.count }.max() ?? 0) + 2)
        for spec in visible {
            let help = spec.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines.append("  " + spec.left.padding(toLength: width, withPad: " ", startingAt: 0) + (help.first ?? ""))
            for more in help.dropFirst() { lines.append("  " + String(repeating: " ", count: width) + more) }
        }
        lines.append("  " + "-h, --help".padding(toLength: width, withPad: " ", startingAt: 0) + "this help")
        return ([about, lines.joined(separator: "\n")] + (notes.isEmpty ? [] : [notes])).joined(separator: "\n\n")
    }

    /// Whether `arguments` ask for help: `-h` or `--help` where an option stands, not as the value
    /// of an option that takes one (`--web-token -h` is a token).
    static func asksForHelp(_ arguments: [String]) -> Bool {
        let takingValues = Set(Option.allCases.map(\.spec).filter(\.takesValue).map(\.name))
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "-h" || argument == "--help" { return true }
            index += takingValues.contains(argument) ? 2 : 1
        }
        return false
    }

    /// Parses `arguments` against the declared options (unknown options and bad values are usage
    /// errors, caught here before anything runs) and runs.
    static func run(arguments: [String]) throws -> Int32 { try run(try Parsed<Option>(arguments)) }
}

/// One option's declaration: its name, what it takes, its help line, and whether `--help` shows it.
struct OptionSpec: Sendable {
    enum Kind: Sendable {
        case flag
        /// Any text but the empty one; `placeholder` names it in the help.
        case value(placeholder: String)
        /// A whole number in `range`; `fallback` when the option is absent.
        case integer(placeholder: String, range: ClosedRange<Int>, fallback: Int)
        /// Text, and the option may be given more than once.
        case repeated(placeholder: String)
    }

    let name: String
    let kind: Kind
    let help: String
    /// A test hook or an internal switch: parsed like any other, left out of `--help`.
    let hidden: Bool

    static func flag(_ name: String, _ help: String, hidden: Bool = false) -> OptionSpec {
        OptionSpec(name: name, kind: .flag, help: help, hidden: hidden)
    }
    static func value(_ name: String, _ placeholder: String, _ help: String, hidden: Bool = false) -> OptionSpec {
        OptionSpec(name: name, kind: .value(placeholder: placeholder), help: help, hidden: hidden)
    }
    static func integer(
        _ name: String, _ placeholder: String, _ range: ClosedRange<Int>, default fallback: Int, _ help: String, hidden: Bool = false
    ) -> OptionSpec {
        OptionSpec(name: name, kind: .integer(placeholder: placeholder, range: range, fallback: fallback), help: help, hidden: hidden)
    }
    static func repeated(_ name: String, _ placeholder: String, _ help: String, hidden: Bool = false) -> OptionSpec {
        OptionSpec(name: name, kind: .repeated(placeholder: placeholder), help: help, hidden: hidden)
    }

    /// The left-hand column of the help: "--runs N".
    var left: String {
        switch kind {
        case .flag: return name
        case .value(let placeholder), .repeated(let placeholder), .integer(let placeholder, _, _): return "\(name) \(placeholder)"
        }
    }

    var takesValue: Bool { if case .flag = kind { false } else { true } }
}

/// A command's options: an enum whose cases are the options, each with its spec.
protocol CommandOption: CaseIterable, Hashable, Sendable {
    var spec: OptionSpec { get }
}

/// For a command with no options of its own.
enum NoOption: CommandOption {
    var spec: OptionSpec { switch self {} }
}

/// The arguments, parsed against a command's declared options and checked: every value has the
/// kind and range its spec says, so the command only reads them.
struct Parsed<Option: CommandOption> {
    private var flags: Set<Option> = []
    private var values: [Option: [String]] = [:]
    private var integers: [Option: Int] = [:]
    private(set) var positional: [String] = []

    init(_ arguments: [String]) throws(UsageError) {
        let byName = Dictionary(Option.allCases.map { ($0.spec.name, $0) }, uniquingKeysWith: { a, _ in a })
        var rest = arguments[...]
        while let word = rest.popFirst() {
            if word == "--" {
                positional.append(contentsOf: rest)
                break
            }
            guard word.hasPrefix("-"), word != "-" else {
                positional.append(word)
                continue
            }
            var name = word
            var inline: String? = nil
            if let eq = word.firstIndex(of: "=") {
                name = String(word[..<eq])
                inline = String(word[word.index(after: eq)...])
            }
            guard let option = byName[name] else { throw UsageError("unknown option \(name)") }
            let spec = option.spec
            guard spec.takesValue else {
                guard inline == nil else { throw UsageError("\(name) takes no value") }
                flags.insert(option)
                continue
            }
            guard let value = inline ?? rest.popFirst() else { throw UsageError("\(name) needs a value") }
            guard !value.isEmpty else { throw UsageError("\(name) needs a value, not an empty one") }
            switch spec.kind {
            case .integer(_, let range, _):
                // ASCII digits only, with a sign: other scripts' digits are not numbers here.
                let digits = value.hasPrefix("-") ? value.dropFirst() : value[...]
                guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                    let n = Int(value), range.contains(n)
                else {
                    throw UsageError("\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(value)'")
                }
                integers[option] = n
            case .value:
                if values[option] != nil { throw UsageError("\(name) is given twice") }
            case .flag, .repeated:
                break
            }
            values[option, default: []].append(value)
        }
    }

    func has(_ option: Option) -> Bool { flags.contains(option) }
    /// The option's value, or nil when it was not given.
    func value(_ option: Option) -> String? { values[option]?.last }
    /// Every value an option that may be repeated was given, in order.
    func all(_ option: Option) -> [String] { values[option] ?? [] }
    /// The option's whole number, checked against its range; its default when it was not given.
    func integer(_ option: Option) -> Int {
        if let n = integers[option] { return n }
        if case .integer(_, _, let fallback) = option.spec.kind { return fallback }
        preconditionFailure("\(option.spec.name) is not declared as a whole number")
    }
    /// Whether the option was given at all.
    func given(_ option: Option) -> Bool { flags.contains(option) || values[option] != nil }
}

/// Exit codes: 0 all went well, 1 something failed, 2 the command was used wrongly.
enum ExitCode {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 2
}

/// The command was used wrongly; the message says how, and the command's help says more.
struct UsageError: Error, Equatable, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// A failure that ends the command with exit code 1 and this message.
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// Writes a line to standard error; when even that fails there is nobody left to tell.
func printError(_ line: String) {
    QuietStderr.write(Array((terminalSafe(line) + "\n").utf8))
}

/// The text with every control character but line breaks and tabs shown escaped (`\u{1B}`): what
/// a camera read, a file's name or a peer's words must not drive the terminal it is printed on.
func terminalSafe(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        let v = scalar.value
        if (v < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 {
            out.append(contentsOf: "\\u{\(String(v, radix: 16, uppercase: true))}".unicodeScalars)
        } else {
            out.append(scalar)
        }
    }
    return String(out)
}

/// Writes to standard output at once, so lines interleave correctly with standard error. When
/// standard output cannot be written (a full disk, a closed pipe, a reader that went away), the
/// tool says so once on standard error and ends with exit code 1: never a crash, never a signal.
func emit(_ line: String) {
    if let error = writeAll(1, Array((terminalSafe(line) + "\n").utf8)) {
        printError("fieldrig: cannot write to standard output (\(error.description)); stopping")
        exit(ExitCode.failure)
    }
}

/// Writes every byte to `fd`, again where interrupted; the failure, if any.
func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> SystemError? {
    var offset = 0
    while offset < bytes.count {
        switch retryingInterrupts("write", { bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) } }) {
        case .success(let n): offset += n
        case .failure(let error): return error
        }
    }
    return nil
}

/// How many things run side by side unless told otherwise: one a core.
let defaultJobs = ProcessInfo.processInfo.activeProcessorCount
