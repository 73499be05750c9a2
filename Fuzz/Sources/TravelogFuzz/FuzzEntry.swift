import Foundation

/// The parser this process fuzzes, read once from `TRAVELOG_FUZZ_TARGET`.
nonisolated(unsafe) private var selectedTarget: FuzzTarget?

/// libFuzzer's driver (in the fuzzer runtime `-sanitize=fuzzer` links).
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// The process's entry point. SwiftPM links an executable's `main` to `<module>_main` on Linux, so
/// libFuzzer's own `main` is never used: this one hands the arguments to its driver.
@_cdecl("TravelogFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let name = ProcessInfo.processInfo.environment["TRAVELOG_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: " ")
        FileHandle.standardError.write(Data("TRAVELOG_FUZZ_TARGET must be one of: \(names)\n".utf8))
        return 2
    }
    selectedTarget = target
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzerTestOneInput)
}

/// libFuzzer's entry point: one input to the selected parser.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selectedTarget?.run(bytes)
    return 0
}
