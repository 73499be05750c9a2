import Foundation

/// Worker threads that inflate and decode frames while the reading thread reads the next ones and
/// hands the decoded blocks on in file order. The reader submits at most `blocksInFlight` frames
/// before it takes the oldest result, so memory is bounded by that many frames and blocks, whatever
/// the file's size.
///
/// Its own threads, not the Swift concurrency pool: decoding a block is a few milliseconds of CPU
/// with no suspension point, and the reader blocks on the file.
final class BlockPipeline: @unchecked Sendable {
    private let condition = NSCondition()
    /// Frames waiting for a worker, with their sequence numbers (oldest first).
    private var waiting: [(sequence: Int, frame: PBFFrame)] = []
    private var results: [Int: Result<OSMBlock, OSMPBFError>] = [:]
    private var closed = false
    private var runningWorkers = 0
    private let elements: OSMPBFReader.Elements

    init(threads: Int, elements: OSMPBFReader.Elements) {
        self.elements = elements
        runningWorkers = threads
        for index in 0..<threads {
            let thread = Thread { [self] in work() }
            thread.name = "osm-pbf-\(index)"
            thread.start()
        }
    }

    /// Queues a frame; its block will be returned by ``take(_:)`` with the same sequence number.
    func submit(_ frame: PBFFrame, sequence: Int) {
        condition.lock()
        waiting.append((sequence, frame))
        condition.signal()
        condition.unlock()
    }

    /// Waits for the block of a sequence number and removes it.
    func take(_ sequence: Int) -> Result<OSMBlock, OSMPBFError> {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = results.removeValue(forKey: sequence) { return result }
            condition.wait()
        }
    }

    /// Drops the frames not started, lets the workers finish the ones they hold and waits for them
    /// to exit: nothing of the pipeline outlives the read.
    func close() {
        condition.lock()
        closed = true
        waiting.removeAll()
        condition.broadcast()
        while runningWorkers > 0 { condition.wait() }
        results.removeAll()
        condition.unlock()
    }

    private func work() {
        condition.lock()
        while true {
            while waiting.isEmpty && !closed { condition.wait() }
            if closed { break }
            let (sequence, frame) = waiting.removeFirst()
            condition.unlock()
            let result = Result { () throws(OSMPBFError) in try OSMPBFReader.decodeData(frame, elements: elements) }
            condition.lock()
            results[sequence] = result
            condition.broadcast()
        }
        runningWorkers -= 1
        condition.broadcast()
        condition.unlock()
    }
}
