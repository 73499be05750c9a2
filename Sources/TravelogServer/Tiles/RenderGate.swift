import Foundation
import Synchronization

/// Lets a bounded number of snapshots be drawn at once, server-wide: at most
/// `maximumConcurrent`, holding at most `pixelBudget` image pixels together (so the largest
/// snapshot is drawn alone, and the journal's small maps side by side). A render that does not
/// fit waits its turn, first come first served, for at most `maximumWaitSeconds`; when
/// `maximumWaiting` renders wait already, or the wait runs out, it is refused at once.
///
/// Drawing is CPU work on the concurrency pool: unbounded, two large heatmaps took 8.5 GB and
/// held `/healthz` for 47 s (issue 25).
final class RenderGate: Sendable {
    let maximumConcurrent: Int
    let pixelBudget: Int
    let maximumWaiting: Int
    let maximumWaitSeconds: Double

    /// Why a render was not let in.
    enum Refusal: Error, Equatable {
        /// Too many renders wait already, or the wait ran out.
        case busy
    }

    private struct Waiter {
        var id: UInt64
        var pixels: Int
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var running = 0
        var pixels = 0
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    init(maximumConcurrent: Int = 2, pixelBudget: Int, maximumWaiting: Int = 32, maximumWaitSeconds: Double = 10) {
        self.maximumConcurrent = max(1, maximumConcurrent)
        self.pixelBudget = pixelBudget
        self.maximumWaiting = maximumWaiting
        self.maximumWaitSeconds = maximumWaitSeconds
    }

    /// Renders now.
    var runningCount: Int { state.withLock { $0.running } }

    /// Runs `body` once the render fits.
    /// - Parameter pixels: the image's pixels (a render larger than the budget waits for an empty gate).
    /// - Throws: `Refusal.busy`, or what `body` throws.
    func run<T: Sendable>(pixels: Int, _ body: () async throws -> T) async throws -> T {
        let weight = min(pixels, pixelBudget)
        guard await admit(weight) else { throw Refusal.busy }
        defer { release(weight) }
        return try await body()
    }

    /// Waits until `weight` fits; `false` when refused.
    private func admit(_ weight: Int) async -> Bool {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let wait = maximumWaitSeconds
        return await withTaskGroup(of: Bool?.self) { group in
            group.addTask { await self.wait(id: id, weight: weight) }
            group.addTask {
                try? await Task.sleep(for: .seconds(wait))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            if let admitted = first { return admitted }
            // The wait ran out: the waiter is cancelled, unless it was let in meanwhile.
            while let next = await group.next() {
                if next == true { release(weight) }
            }
            return false
        }
    }

    private func wait(id: UInt64, weight: Int) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let admitted: Bool? = state.withLock { state in
                    if Task.isCancelled { return false }
                    if state.waiters.isEmpty, fits(weight, state) {
                        state.running += 1
                        state.pixels += weight
                        return true
                    }
                    guard state.waiters.count < maximumWaiting else { return false }
                    state.waiters.append(Waiter(id: id, pixels: weight, continuation: continuation))
                    return nil
                }
                if let admitted { continuation.resume(returning: admitted) }
            }
        } onCancel: {
            let removed = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            removed?.continuation.resume(returning: false)
        }
    }

    private func fits(_ weight: Int, _ state: State) -> Bool {
        state.running < maximumConcurrent && (state.running == 0 || state.pixels + weight <= pixelBudget)
    }

    private func release(_ weight: Int) {
        let admitted = state.withLock { state -> [Waiter] in
            state.running -= 1
            state.pixels -= weight
            var admitted: [Waiter] = []
            while let first = state.waiters.first, fits(first.pixels, state) {
                state.waiters.removeFirst()
                state.running += 1
                state.pixels += first.pixels
                admitted.append(first)
            }
            return admitted
        }
        for waiter in admitted { waiter.continuation.resume(returning: true) }
    }
}
