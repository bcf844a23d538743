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
        if let shard { selected = selected.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element) }
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
}

/// Scenario results as a JUnit report, for CI.
public enum JUnitReport {
    public static func xml(_ results: [ScenarioResult], elapsed: Duration) -> String {
        func escape(_ s: String) -> String {
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
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuite name=\"fieldrig scenarios\" tests=\"\(results.count)\" failures=\"\(results.filter { !$0.passed }.count)\" time=\"\(elapsed.inSeconds)\">\n"
        for r in results {
            xml +=
                "  <testcase classname=\"\(escape(r.location.description))\" name=\"\(escape(r.scenario))\" time=\"\(r.duration.inSeconds)\">"
            if let failure = r.failure {
                xml += "<failure message=\"\(escape(failure))\">\(escape(r.transcript.joined(separator: "\n")))</failure>"
            }
            xml += "</testcase>\n"
        }
        return xml + "</testsuite>\n"
    }
}
