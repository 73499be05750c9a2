import ArgumentParser
import Foundation

/// Runs standard input through a `LineProcessor` to standard output.
enum LineFilter {
    /// Feeds standard input to `processor` in blocks; output is written when 64 KiB have
    /// accumulated, or after every block when it goes to a terminal.
    /// - Throws: `ExitCode(1)` when some line failed, `StandardStreamError` on I/O failure.
    static func run(_ processor: some LineProcessor) throws {
        var processor = processor
        let flushThreshold = 1 << 16
        let interactive = StandardStreams.outputIsTerminal
        var splitter = LineSplitter()
        var output: [UInt8] = []
        output.reserveCapacity(flushThreshold + 4096)
        try StandardStreams.readBlocks { block in
            splitter.consume(block) { processor.process(line: $0, into: &output) }
            if interactive || output.count >= flushThreshold {
                try StandardStreams.write(output)
                output.removeAll(keepingCapacity: true)
            }
        }
        splitter.finish { processor.process(line: $0, into: &output) }
        try StandardStreams.write(output)
        if processor.failedLineCount > 0 { throw ExitCode(1) }
    }
}

/// A line processor whose line numbers can start anywhere, so that several copies can each take a
/// part of a batch of lines.
protocol NumberedLineProcessor: LineProcessor, SendableMetatype {
    /// The number of the last line processed (the next one is `lineCount + 1`).
    var lineCount: Int { get set }
}

/// The processors of ``LineFilter/runParallel(cores:make:)`` and their output, one slot a core:
/// each core touches its own slot only, between the batches' barriers.
private final class LineFilterParts<P: NumberedLineProcessor>: @unchecked Sendable {
    /// Raw storage, not an array: a core writing its slot must not make the others' copy-on-write.
    let slots: UnsafeMutableBufferPointer<(processor: P, output: [UInt8])>

    init(_ slots: [(processor: P, output: [UInt8])]) {
        self.slots = .allocate(capacity: slots.count)
        _ = self.slots.initialize(from: slots)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }
}

/// A batch's lines, read by every core at once and written by none.
private struct LineBatch: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
    let ends: UnsafeBufferPointer<Int>
}

extension LineFilter {
    /// Lines per batch shared among the cores.
    static let parallelBatchLines = 16_384

    /// ``run(_:)`` over every core when neither standard input nor output is a terminal: lines
    /// are gathered in batches, each batch cut into one part per core, each part processed by its
    /// own processor (from `make`), and the parts' output written in the order of the input.
    /// A person typing lines is answered line by line, as ``run(_:)`` does.
    /// - Throws: `ExitCode(1)` when some line failed, `StandardStreamError` on I/O failure.
    static func runParallel<P: NumberedLineProcessor>(cores: Int = ProcessInfo.processInfo.activeProcessorCount, make: () -> P) throws {
        guard cores > 1, !StandardStreams.inputIsTerminal, !StandardStreams.outputIsTerminal else {
            try run(make())
            return
        }
        try runParallel(cores: cores, read: StandardStreams.readBlocks, write: StandardStreams.write, make: make)
    }

    /// ``runParallel(cores:make:)`` over any blocks in and bytes out (tests give their own).
    static func runParallel<P: NumberedLineProcessor>(cores: Int, read: ((UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Void,
                                                      write: @escaping ([UInt8]) throws -> Void, make: () -> P) throws {
        let parts = LineFilterParts<P>((0..<cores).map { _ in (make(), []) })
        var bytes: [UInt8] = []
        var ends: [Int] = []  // the end of each line in `bytes`
        var linesBefore = 0
        func flush() throws {
            guard !ends.isEmpty else { return }
            let lineCount = ends.count, first = linesBefore
            bytes.withUnsafeBufferPointer { bytes in
                ends.withUnsafeBufferPointer { ends in
                    let batch = LineBatch(bytes: bytes, ends: ends)
                    DispatchQueue.concurrentPerform(iterations: cores) { part in
                        let low = lineCount * part / cores, high = lineCount * (part + 1) / cores
                        let slot = parts.slots.baseAddress! + part
                        var (processor, output) = slot.move()  // moved out and back: the output's buffer stays unique
                        output.removeAll(keepingCapacity: true)
                        processor.lineCount = first + low
                        for line in low..<high {
                            let start = line == 0 ? 0 : batch.ends[line - 1]
                            processor.process(line: UnsafeBufferPointer(rebasing: batch.bytes[start..<batch.ends[line]]), into: &output)
                        }
                        slot.initialize(to: (processor, output))
                    }
                }
            }
            for part in 0..<cores { try write(parts.slots[part].output) }
            linesBefore += lineCount
            bytes.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
        }
        var splitter = LineSplitter()
        try read { block in
            splitter.consume(block) { line in
                bytes.append(contentsOf: line)
                ends.append(bytes.count)
            }
            if ends.count >= parallelBatchLines { try flush() }
        }
        splitter.finish { line in
            bytes.append(contentsOf: line)
            ends.append(bytes.count)
        }
        try flush()
        if parts.slots.contains(where: { $0.processor.failedLineCount > 0 }) { throw ExitCode(1) }
    }
}
