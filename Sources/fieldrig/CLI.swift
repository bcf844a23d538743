import Foundation

/// A subcommand of `fieldrig`.
protocol Command {
    /// The words that name it, e.g. ["bench", "read"].
    static var name: [String] { get }
    /// One line for the overview.
    static var summary: String { get }
    /// The whole `--help` text.
    static var help: String { get }
    /// Runs with the arguments after the command's name; returns the exit code.
    static func run(_ arguments: [String]) throws -> Int32
}

/// Exit codes: 0 all went well, 1 something failed, 2 the command was used wrongly.
enum ExitCode {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 2
}

/// The command was used wrongly; the message says how, and the command's help says more.
struct UsageError: Error, CustomStringConvertible {
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

/// Hand-parsed options: `--flag`, `--option VALUE`, `--option=VALUE`, and positional words.
/// `--` ends the options.
struct Options {
    private(set) var flags: Set<String> = []
    private(set) var values: [String: String] = [:]
    private(set) var repeated: [String: [String]] = [:]
    private(set) var positional: [String] = []

    /// Parses `arguments`, knowing which options are flags and which take a value.
    init(_ arguments: [String], flags known: Set<String>, values takesValue: Set<String>) throws(UsageError) {
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
            if known.contains(name) {
                guard inline == nil else { throw UsageError("\(name) takes no value") }
                flags.insert(name)
            } else if takesValue.contains(name) {
                guard let value = inline ?? rest.popFirst() else { throw UsageError("\(name) needs a value") }
                values[name] = value
                repeated[name, default: []].append(value)
            } else {
                throw UsageError("unknown option \(word)")
            }
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func value(_ name: String) -> String? { values[name] }
    /// Every value an option that may be repeated was given, in order.
    func all(_ name: String) -> [String] { repeated[name] ?? [] }

    /// The value of `name` as a whole number in `range`, or `default` when absent.
    func integer(_ name: String, default fallback: Int, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = values[name] else { return fallback }
        guard let n = Int(text), range.contains(n) else {
            throw UsageError("\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return n
    }
}

/// Writes a line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Writes to standard output at once, so lines interleave correctly with standard error.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
