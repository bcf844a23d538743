import Foundation
import FuzzTargets

// libFuzzer's driver over one parser, chosen by FIELDRIG_FUZZ=NAME (see CI/fuzz). Built with
// `-sanitize=fuzzer -DFUZZING`; without it, the same binary replays files through a parser:
// `fieldrig-fuzz NAME FILE...`.

/// The parser FIELDRIG_FUZZ names.
func chosen() -> (@Sendable ([UInt8]) -> FuzzOutcome)? {
    let name = ProcessInfo.processInfo.environment["FIELDRIG_FUZZ"] ?? ""
    return FuzzTargets.all.first { $0.name == name }?.run
}

#if FUZZING
    nonisolated(unsafe) var target: (@Sendable ([UInt8]) -> FuzzOutcome)? = nil

    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOne(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
        if case .broken(let promise)? = target?(Array(UnsafeBufferPointer(start: data, count: count))) {
            fatalError("promise broken: \(promise)")
        }
        return 0
    }

    @_silgen_name("LLVMFuzzerRunDriver")
    func runDriver(
        _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
    ) -> CInt

    // SwiftPM links an executable's entry point under this name.
    @_cdecl("fieldrig_fuzz_main")
    func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
        guard let run = chosen() else {
            FileHandle.standardError.write(
                Data("set FIELDRIG_FUZZ to one of: \(FuzzTargets.all.map(\.name).joined(separator: ", "))\n".utf8))
            return 2
        }
        target = run
        var count = argc
        var values = argv
        return runDriver(&count, &values) { data, size in fuzzOne(data, size) }
    }
#else
    @main
    struct Replay {
        static func main() {
            let arguments = Array(CommandLine.arguments.dropFirst())
            guard let name = arguments.first, let run = FuzzTargets.all.first(where: { $0.name == name })?.run else {
                FileHandle.standardError.write(
                    Data("usage: fieldrig-fuzz NAME FILE... (NAME: \(FuzzTargets.all.map(\.name).joined(separator: ", ")))\n".utf8))
                exit(2)
            }
            var broken = false
            for file in arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: file) else {
                    FileHandle.standardError.write(Data("\(file): cannot be read\n".utf8))
                    broken = true
                    continue
                }
                if case .broken(let promise) = run(Array(data)) {
                    FileHandle.standardError.write(Data("\(file): promise broken: \(promise)\n".utf8))
                    broken = true
                }
            }
            exit(broken ? 1 : 0)
        }
    }
#endif
