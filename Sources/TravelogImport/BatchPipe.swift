import Foundation
import TravelogCore

/// A bounded hand-over of location batches from the thread that reads a file to the thread that
/// stores it, so parsing and storing run on both cores at once while memory stays at a few batches.
///
/// The producer `put`s batches and ends with `finish(_:)` or `fail(_:)`; the consumer `take`s until
/// `nil` and `cancel`s when it fails, which makes the producer's next `put` return false.
final class BatchPipe<Summary>: @unchecked Sendable {
    /// A batch and how far the reader had got when it was full.
    struct Item {
        var locations: [Location]
        var bytesRead: Int
        var locationsRead: Int
    }

    private let condition = NSCondition()
    private var items: [Item] = []
    private let capacity: Int
    private var summary: Summary?
    private var failure: (any Error)?
    private var cancelled = false
    private var producerDone = false

    /// - Parameter capacity: how many batches may wait (at least 1).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Hands a batch over, waiting while the pipe is full. - Returns: false once the consumer has
    /// cancelled (the producer should stop).
    func put(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// The producer read everything.
    func finish(_ summary: Summary) {
        condition.lock()
        self.summary = summary
        producerDone = true
        condition.broadcast()
        condition.unlock()
    }

    /// The producer stopped on an error.
    func fail(_ error: any Error) {
        condition.lock()
        failure = error
        producerDone = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch, or `nil` when the producer has finished and everything was taken.
    /// - Throws: the producer's error.
    func take() throws -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !producerDone { condition.wait() }
        if let failure { throw failure }
        guard !items.isEmpty else { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// What the producer reported when it finished (after `take` returned `nil`).
    var result: Summary? {
        condition.lock()
        defer { condition.unlock() }
        return summary
    }

    /// The consumer gives up: the producer's next `put` returns false. Waits until it has stopped.
    func cancelAndWait() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !producerDone { condition.wait() }
        condition.unlock()
    }
}
