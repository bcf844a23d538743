import Dispatch
import Foundation
import Imaging
import Model

#if canImport(Glibc)
    import Glibc
#endif

/// A part of a frame to read: the lines of text inside `area`, looked for as `layout` says.
public struct TextPart: Sendable {
    public var frame: Frame
    public var area: Box
    public var layout: TextReader.Layout

    public init(_ frame: Frame, within area: Box, as layout: TextReader.Layout) {
        self.frame = frame
        self.area = area
        self.layout = layout
    }
}

extension TextReader {
    /// The lines of each of `parts`, in their order, read side by side on `workers` engines.
    ///
    /// The repairs read a page's rows again one by one, each as its own recognition: those are
    /// handed out to the engines as each finishes its last, this engine one of them. An engine
    /// reads a part as it would alone (tesseract keeps nothing from one recognition to the next),
    /// so what is read does not depend on how many engines read it. The other engines are made
    /// when first needed, about 50 ms each.
    public func read(_ parts: [TextPart]) -> [[TextLine]] {
        let engines = min(workers, parts.count)
        guard engines > 1, let crew = crew(engines) else {
            return parts.map { read($0.frame, within: $0.area, as: $0.layout) }
        }
        let results = Locked([[TextLine]](repeating: [], count: parts.count))
        let next = Locked(0)
        let elsewhere = Locked(Duration.zero)
        let caller = pthread_self()
        DispatchQueue.concurrentPerform(iterations: engines) { worker in
            let engine = crew.engines[worker]
            let start = threadCPUTime()
            while let i = next.take(below: parts.count) {
                let lines = engine.read(parts[i].frame, within: parts[i].area, as: parts[i].layout)
                results.withLock { $0[i] = lines }
            }
            if pthread_equal(pthread_self(), caller) == 0 {
                let spent = threadCPUTime() - start
                elsewhere.withLock { $0 += spent }
            }
        }
        cpuElsewhere += elsewhere.current
        return results.current
    }

    /// This engine and enough others to make `count`; nil where another cannot be made (the
    /// parts are then read on this one).
    private func crew(_ count: Int) -> Crew? {
        while helpers.count < count - 1 {
            do throws(ReaderError) {
                helpers.append(try TextReader(language: language, layout: layout, workers: 1))
            } catch {
                return nil
            }
        }
        return Crew(engines: [self] + helpers.prefix(count - 1))
    }
}

/// The engines reading one page's parts side by side.
// @unchecked Sendable: during a read of parts, engine `i` is used by the worker numbered `i`
// alone, and by nobody else until every worker is done.
private struct Crew: @unchecked Sendable {
    let engines: [TextReader]
}

/// The CPU time the calling thread has used.
public func threadCPUTime() -> Duration {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
}
