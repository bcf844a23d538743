import Model
import Testing

@testable import Companion

@Suite("What is still on the phone: the summary")
struct QueueSummaryTests {
    /// The expected line for a count, written out here from the specification.
    func expected(_ n: Int, _ kind: Int) -> String? {
        guard n > 0 else { return nil }
        switch kind {
        case 0: return "\(n) still going up"
        case 1: return n == 1 ? "1 needs a decision" : "\(n) need a decision"
        default: return "\(n) kept on this phone, not queued to send yet"
        }
    }

    @Test("every combination of the three counts (0, 1, many) gives the exact text, and both screens agree")
    func matrix() {
        for goingUp in [0, 1, 4] {
            for needDecision in [0, 1, 3] {
                for kept in [0, 1, 2] {
                    let summary = QueueSummary(counts: QueueCounts(goingUp: goingUp, needDecision: needDecision, kept: kept), stall: nil)
                    let want = [expected(goingUp, 0), expected(needDecision, 1), expected(kept, 2)].compactMap { $0 }
                    #expect(summary.lines == (want.isEmpty ? ["All sent"] : want), "\(goingUp) \(needDecision) \(kept)")
                    #expect(summary.lines.contains("All sent") == (goingUp == 0 && needDecision == 0 && kept == 0))
                    let queue = QueueScreen(summary: summary, rows: [])
                    let more = MoreScreen(summary: summary)
                    #expect(Array(queue.header.prefix(summary.lines.count)) == more.photographsRow.detail)
                }
            }
        }
    }

    @Test("the queue says why nothing moves when it knows, only while something waits")
    func explanations() {
        let waiting = QueueCounts(goingUp: 2, needDecision: 0, kept: 0)
        #expect(
            QueueSummary(counts: waiting, stall: .macNotOnNetwork(macName: "Studio Mac")).explanation
                == "Waiting for Studio Mac to be on this network.")
        #expect(
            QueueSummary(counts: QueueCounts(goingUp: 0, needDecision: 0, kept: 3), stall: .noMacPaired).explanation
                == "Nothing can go up until this iPhone is paired with your Mac.")
        #expect(QueueSummary(counts: QueueCounts(goingUp: 0, needDecision: 0, kept: 0), stall: .noMacPaired).explanation == nil)
        #expect(QueueSummary(counts: waiting, stall: nil).explanation == nil)
    }
}
