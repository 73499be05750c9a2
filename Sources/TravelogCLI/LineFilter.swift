import ArgumentParser

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
