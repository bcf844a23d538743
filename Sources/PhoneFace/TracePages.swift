import Model

/// A frame the camera delivered during a step, as a trace keeps it: the image file (relative to
/// the scenario's page), its size, when it came, and what was read on it.
public struct TraceFrame: Sendable {
    public var image: String
    public var width: Int
    public var height: Int
    public var at: Duration
    public var marks: [FrameMark]

    public init(image: String, width: Int, height: Int, at: Duration, marks: [FrameMark]) {
        self.image = image
        self.width = width
        self.height = height
        self.at = at
        self.marks = marks
    }
}

/// One step of a scenario as the trace shows it.
public struct TraceStep: Sendable {
    public var clock: Duration
    /// `Scenarios/FILE:LINE`.
    public var location: String
    public var text: String
    /// The phone after the step, as `PhoneHTML.phone` drew it.
    public var phone: String
    /// Frames kept for the filmstrip, and how many the camera delivered in the step in all.
    public var frames: [TraceFrame]
    public var framesDelivered: Int
    /// The queue and the handover after the step, in the screens' words.
    public var world: [String]
    /// For the failing step: what the step expected, and what was seen instead.
    public var failure: (expected: String, seen: String)?

    public init(
        clock: Duration, location: String, text: String, phone: String, frames: [TraceFrame], framesDelivered: Int, world: [String],
        failure: (expected: String, seen: String)? = nil
    ) {
        self.clock = clock
        self.location = location
        self.text = text
        self.phone = phone
        self.frames = frames
        self.framesDelivered = framesDelivered
        self.world = world
        self.failure = failure
    }
}

/// A whole scenario's trace.
public struct ScenarioTrace: Sendable {
    public var name: String
    public var rules: [String]
    public var location: String
    public var failure: String?
    public var duration: Duration
    public var steps: [TraceStep]

    public init(name: String, rules: [String], location: String, failure: String?, duration: Duration, steps: [TraceStep]) {
        self.name = name
        self.rules = rules
        self.location = location
        self.failure = failure
        self.duration = duration
        self.steps = steps
    }
}

/// A line of the trace index: one scenario, with a link to its page when one was kept.
public struct TraceIndexEntry: Sendable {
    public var name: String
    public var rules: [String]
    public var location: String
    public var passed: Bool
    public var duration: Duration
    public var page: String?

    public init(name: String, rules: [String], location: String, passed: Bool, duration: Duration, page: String?) {
        self.name = name
        self.rules = rules
        self.location = location
        self.passed = passed
        self.duration = duration
        self.page = page
    }
}

/// The pages of `fieldrig scenarios --trace`: self-contained HTML, opened from disk.
public enum TracePages {
    static func document(title: String, _ body: (inout Markup) -> Void) -> String {
        var m = Markup()
        m.raw("<!DOCTYPE html>\n")
        m.element("html", [("lang", "en")]) { m in
            m.element("head", []) { m in
                m.open("meta", [("charset", "utf-8")])
                m.open("meta", [("name", "viewport"), ("content", "width=device-width, initial-scale=1")])
                m.element("title", [], title)
                m.element("style", []) { $0.raw(PageStyle.css) }
            }
            m.element("body", [], body)
        }
        return m.html + "\n"
    }

    /// The index: every scenario run, its result, time and rules, linked to its page.
    public static func index(_ entries: [TraceIndexEntry], title: String) -> String {
        let failed = entries.filter { !$0.passed }.count
        return document(title: title) { m in
            m.element("header", [("class", "page")]) { m in
                m.element("h1", [], title)
                m.element("span", [("class", "meta")], "\(entries.count - failed) passed, \(failed) failed")
            }
            m.element("table", [("class", "results")]) { m in
                m.element("tr", []) { m in for h in ["Result", "Scenario", "Time", "Rules", "Written at"] { m.element("th", [], h) } }
                for entry in entries {
                    m.element("tr", [("class", entry.passed ? "passed" : "failed")]) { m in
                        m.element("td", [("class", entry.passed ? "pass" : "fail")], entry.passed ? "pass" : "FAIL")
                        m.element("td", []) { m in
                            if let page = entry.page { m.element("a", [("href", page)], entry.name) } else { m.raw(escapeHTML(entry.name)) }
                        }
                        m.element("td", [], "\(entry.duration.inMilliseconds) ms")
                        m.element("td", [], entry.rules.joined(separator: ", "))
                        m.element("td", [], entry.location)
                    }
                }
            }
        }
    }

    /// One scenario's page: each step with its clock, the phone after it, the filmstrip of
    /// the frames the camera delivered with their boxes, the queue and the handover; the failing
    /// step marked with what was expected, what was seen, and where it is written.
    public static func scenario(_ trace: ScenarioTrace, index: String = "index.html") -> String {
        document(title: "\(trace.failure == nil ? "pass" : "FAIL"): \(trace.name)") { m in
            m.element("header", [("class", "page")]) { m in
                m.element("h1", [], trace.name)
                m.element("span", [("class", trace.failure == nil ? "pass" : "fail")], trace.failure == nil ? "passed" : "FAILED")
                m.element("span", [("class", "meta")], "rules \(trace.rules.joined(separator: ", ")) · \(trace.location)")
                m.element("a", [("href", index), ("class", "meta")], "all scenarios")
            }
            if let failure = trace.failure {
                m.element("div", [("class", "failure"), ("id", "failure")]) { m in m.element("p", [], failure) }
            }
            m.element("ol", [("class", "steps")]) { m in
                for (number, step) in trace.steps.enumerated() {
                    m.element("li", [("class", step.failure == nil ? "step" : "step failed"), ("id", "step-\(number + 1)")]) { m in
                        m.element("div", []) { m in
                            m.element("div", [("class", "step-head")]) { m in
                                m.element("span", [("class", "clock")], clockText(step.clock))
                                m.element("span", [("class", "text")], step.text)
                                m.element("span", [("class", "location")], step.location)
                            }
                            if let failure = step.failure {
                                m.element("dl", [("class", "failure")]) { m in
                                    m.element("dt", [], "Expected")
                                    m.element("dd", [], failure.expected)
                                    m.element("dt", [], "Seen")
                                    m.element("dd", [], failure.seen)
                                    m.element("dt", [], "Written at")
                                    m.element("dd", [], step.location)
                                }
                            }
                            if step.framesDelivered > 0 {
                                let kept = step.frames.count
                                m.element(
                                    "div", [("class", "world")],
                                    "The camera delivered \(step.framesDelivered) frame\(step.framesDelivered == 1 ? "" : "s")"
                                        + (kept < step.framesDelivered
                                            ? "; \(kept) shown (the first, every one that read something new, the last)" : "")
                                        + ".")
                                m.element("div", [("class", "filmstrip")]) { m in
                                    for frame in step.frames {
                                        let read = frame.marks.map(\.label).joined(separator: "; ")
                                        m.raw(
                                            FrameHTML.frame(
                                                source: frame.image, width: frame.width, height: frame.height, marks: frame.marks,
                                                caption: clockText(frame.at) + (read.isEmpty ? "" : " · " + read)))
                                    }
                                }
                            }
                            for line in step.world { m.element("div", [("class", "world")], line) }
                        }
                        m.raw(step.phone)
                    }
                }
            }
        }
    }
}
