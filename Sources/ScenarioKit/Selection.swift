import Foundation
import Model

/// Which scenarios a run takes: by name, by rule, one shard of several, and through which camera.
public struct ScenarioSelection: Sendable {
    /// One of `count` equal shares, counted from 1: scenario k goes to shard k mod count.
    public struct Shard: Sendable, Equatable {
        public var index: Int
        public var count: Int

        /// "I/N", with 1 <= I <= N; nil otherwise.
        public init?(_ text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (48...57).contains($0) } }),
                let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(i)
            else { return nil }
            index = i
            count = n
        }
    }

    /// Names containing this, ignoring case.
    public var filter: String?
    /// Scenarios covering this rule id (any case).
    public var rule: String?
    public var shard: Shard?
    /// Seconds each scenario took last time, by name: with a shard, the shards are cut so their
    /// summed times are even (a scenario with no time counts as the mean of those with one).
    public var durations: [String: Double]?
    /// Play every scenario through this camera instead of its recording (relative to the working folder).
    public var camera: String?

    public init(filter: String? = nil, rule: String? = nil, shard: Shard? = nil, camera: String? = nil) {
        self.filter = filter
        self.rule = rule
        self.shard = shard
        self.camera = camera
    }

    /// The scenarios selected, in their order.
    public func apply(to scenarios: [Scenario], workingDirectory: String) -> [Scenario] {
        var selected = scenarios
        if let filter { selected = selected.filter { $0.name.lowercased().contains(filter.lowercased()) } }
        if let rule { selected = selected.filter { $0.rules.contains(rule.uppercased()) } }
        if let shard {
            let owners = durations.map { Self.cut(selected.map(\.name), durations: $0, into: shard.count) }
            selected = selected.enumerated().filter { (owners?[$0.offset] ?? $0.offset % shard.count) == shard.index - 1 }.map(\.element)
        }
        if let camera {
            let absolute = camera.hasPrefix("/") ? camera : workingDirectory + "/" + camera
            selected = selected.map { scenario in
                var s = scenario
                s.phone.camera = absolute
                return s
            }
        }
        return selected
    }

    /// The shard (from 0) each of `names` goes to: the longest first, each to the shard with the
    /// least time so far (the lowest on a tie). The same inputs give the same cut on every machine.
    public static func cut(_ names: [String], durations: [String: Double], into count: Int) -> [Int] {
        let known = names.compactMap { durations[$0] }
        let usual = known.isEmpty ? 1 : known.reduce(0, +) / Double(known.count)
        let weights = names.map { durations[$0] ?? usual }
        let order = names.indices.sorted { weights[$0] != weights[$1] ? weights[$0] > weights[$1] : $0 < $1 }
        var totals = [Double](repeating: 0, count: count)
        var owners = [Int](repeating: 0, count: names.count)
        for index in order {
            let lightest = totals.indices.min { totals[$0] != totals[$1] ? totals[$0] < totals[$1] : $0 < $1 }!
            owners[index] = lightest
            totals[lightest] += weights[index]
        }
        return owners
    }
}

/// Scenario results as a JUnit report, for CI.
public enum JUnitReport {
    public static func xml(_ results: [ScenarioResult], elapsed: Duration) -> String {
        xml(results.map(ScenarioRecord.init), elapsed: elapsed)
    }

    public static func xml(_ records: [ScenarioRecord], elapsed: Duration) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuite name=\"fieldrig scenarios\" tests=\"\(records.count)\" failures=\"\(records.filter { !$0.passed }.count)\" time=\"\(elapsed.inSeconds)\">\n"
        for r in records {
            xml += "  <testcase classname=\"\(escape(r.location))\" name=\"\(escape(r.name))\" time=\"\(r.seconds)\">"
            if let failure = r.failure {
                xml += "<failure message=\"\(escape(failure))\">\(escape(r.transcript.joined(separator: "\n")))</failure>"
            }
            xml += "</testcase>\n"
        }
        return xml + "</testsuite>\n"
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            // XML 1.0 has no way to write most control characters: they are shown escaped.
            case _ where c.value < 0x20 && c != "\n" && c != "\t": out += "\\u{\(String(c.value, radix: 16))}"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Each test case of a JUnit report, its name and time and whether it failed.
    static func cases(_ xml: String) -> [(name: String, seconds: Double?, failed: Bool)] {
        var found: [(name: String, seconds: Double?, failed: Bool)] = []
        var rest = Substring(xml)
        while let open = rest.range(of: "<testcase") {
            let after = rest[open.upperBound...]
            let end = after.range(of: "</testcase>")?.upperBound ?? after.range(of: "/>")?.upperBound ?? after.endIndex
            let element = after[..<end]
            let header = element.prefix { $0 != ">" }
            if let name = attribute("name", in: header) {
                found.append((unescape(name), attribute("time", in: header).flatMap(Double.init), element.contains("<failure")))
            }
            rest = after[end...]
        }
        return found
    }

    private static func attribute(_ name: String, in tag: Substring) -> String? {
        guard let start = tag.range(of: " \(name)=\"") else { return nil }
        let value = tag[start.upperBound...]
        return value.firstIndex(of: "\"").map { String(value[..<$0]) }
    }

    private static func unescape(_ s: String) -> String {
        s.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
