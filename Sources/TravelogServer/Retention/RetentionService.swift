import Foundation
import Logging
import ServiceLifecycle
import TravelogAccounts
import TravelogStore

/// Applies every user's retention in the background: shortly after the server starts, then once
/// a day. `HistoryRetention.run` deletes in batches of a short transaction each and yields between
/// them, so phones' writes wait milliseconds at most; the map index of a user who lost fixes is
/// rebuilt (`HistoryTiles.historyRemoved`).
struct RetentionService: Service {
    let retention: HistoryRetention
    let tiles: HistoryTiles
    let logger: Logger
    /// Seconds after the start before the first round.
    var initialDelaySeconds: Double = 120
    /// Seconds between two rounds.
    var intervalSeconds: Double = 86_400

    /// One round over every user. - Returns: the runs, by user (users with retention off, or with
    /// a run going on already, are absent).
    @discardableResult
    func runOnce(now: Date = Date()) async throws(StoreError) -> [UserID: RetentionRun] {
        var runs: [UserID: RetentionRun] = [:]
        for user in try await retention.store.users() {
            let done: RetentionRun?
            do throws(RetentionRunError) {
                done = try await retention.run(userID: user.id, now: now)
            } catch {
                switch error {
                case .alreadyRunning: continue
                case .store(let failure): throw failure
                }
            }
            guard let run = done else { continue }
            runs[user.id] = run
            if run.deletedFixes > 0 || run.deletedVisits > 0 {
                tiles.historyRemoved(userID: user.id)
                logger.info("retention deleted old history", metadata: [
                    "user": "\(user.id)", "fixes": "\(run.deletedFixes)", "visits": "\(run.deletedVisits)",
                ])
            }
        }
        return runs
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            try? await Task.sleep(for: .seconds(initialDelaySeconds))
            while !Task.isCancelled {
                do {
                    try await runOnce()
                } catch {
                    logger.warning("retention failed", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: .seconds(intervalSeconds))
            }
        }
    }
}
