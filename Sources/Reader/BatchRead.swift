import Dispatch
import Foundation
import Imaging
import Model

/// Many image files read side by side, each worker with its own engines, delivered in order.
public enum BatchRead {
    /// A frame and what was read in it.
    public struct Read: Sendable {
        public var frame: Frame
        public var readings: [Reading]
    }

    /// Reads `files` on `jobs` threads, each with its own engines (the repairs in `turnedOff`
    /// turned off; the rows of a page read again on `textWorkers` engines), and hands each
    /// outcome to `deliver` in the order of `files`, as soon as it and all before it are done.
    public static func readAll(
        _ files: [String], passes: FrameReader.Passes, jobs: Int, textWorkers: Int = 1, turnedOff: Set<ReaderPass> = [],
        deliver: (String, Result<Read, ImageError>) -> Void
    ) throws(ReaderError) {
        let workers = min(jobs, files.count)
        let outcomes = OrderedOutcomes<Result<Read, ImageError>>(count: files.count)
        let setupError = OrderedOutcomes<ReaderError>(count: 1)
        let next = Locked(0)
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                let reader: FrameReader
                do throws(ReaderError) {
                    reader = try FrameReader(textWorkers: textWorkers)
                    reader.turnedOff = turnedOff
                } catch {
                    setupError.put(error, at: 0)
                    outcomes.abandon()
                    return
                }
                while let i = next.take(below: files.count) {
                    let outcome = Result { () throws(ImageError) -> Read in
                        let frame = try ImageFile.load(files[i])
                        return Read(frame: frame, readings: reader.read(frame, passes: passes))
                    }
                    outcomes.put(outcome, at: i)
                }
            }
        }
        for i in files.indices {
            guard let outcome = outcomes.wait(for: i) else { break }
            deliver(files[i], outcome)
        }
        if let error = setupError.peek(0) { throw error }
    }
}

/// Results filled in by workers in any order and taken in index order.
// @unchecked Sendable: every access to `slots` and `abandoned` holds `condition`.
final class OrderedOutcomes<Value>: @unchecked Sendable {
    private var slots: [Value?]
    private var abandoned = false
    private let condition = NSCondition()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func put(_ value: Value, at index: Int) {
        condition.lock()
        slots[index] = value
        condition.broadcast()
        condition.unlock()
    }

    /// Wakes every waiter: no more values will come.
    func abandon() {
        condition.lock()
        abandoned = true
        condition.broadcast()
        condition.unlock()
    }

    /// The value at `index`, waiting until it is there; nil once abandoned.
    func wait(for index: Int) -> Value? {
        condition.lock()
        defer { condition.unlock() }
        while slots[index] == nil && !abandoned { condition.wait() }
        return slots[index]
    }

    func peek(_ index: Int) -> Value? {
        condition.lock()
        defer { condition.unlock() }
        return slots[index]
    }
}
