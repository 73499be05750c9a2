import Foundation
import Logging
import ServiceLifecycle
import TravelogRender
import TravelogStore

/// A user's index as the server obtained it: read from its saved file and brought up to date, or
/// built from the store.
struct ObtainedIndex: Sendable {
    var loaded: HistoryIndexLoader.Loaded
    /// Fixes the index holds beyond its saved file (`nil`: there is no file of it).
    var fixesSinceSave: Int?
}

/// Saving the indices (next to a SQLite database, or in a folder of the server's for PostgreSQL),
/// and reading them back at the next start.
extension HistoryTiles: Service {
    /// The file of a user's saved index.
    func indexFile(userID: UserID) -> URL? {
        indexDirectory?.appendingPathComponent("user-\(userID.rawValue).index")
    }

    /// The users that have a saved index.
    func usersWithSavedIndex() -> [UserID] {
        guard let indexDirectory, let names = try? FileManager.default.contentsOfDirectory(atPath: indexDirectory.path) else { return [] }
        return names.compactMap { name in
            guard name.hasPrefix("user-"), name.hasSuffix(".index") else { return nil }
            return Int64(name.dropFirst(5).dropLast(6)).map(UserID.init(rawValue:))
        }.sorted()
    }

    /// The saved index brought up to date with the store when the store confirms it, else the
    /// index built from the store.
    func obtainIndex(userID: UserID) async throws -> ObtainedIndex {
        let started = ContinuousClock.now
        if let file = indexFile(userID: userID) {
            do {
                let saved = try HistoryIndexFile.read(from: file)
                if let (loaded, appended) = try await HistoryIndexLoader.resume(saved, store: store, userID: userID) {
                    logger.info("history index of user \(userID) read from its saved file",
                                metadata: ["fixes": "\(loaded.index.fixCount)", "appended": "\(appended)",
                                           "seconds": "\(Self.seconds(since: started))"])
                    await builtHook?()
                    return ObtainedIndex(loaded: loaded, fixesSinceSave: appended)
                }
                logger.notice("the saved history index of user \(userID) differs from the store; building it anew")
            } catch let error as HistoryIndexFileError where error != .notFound {
                logger.warning("history index of user \(userID) built anew: \(error)")
            } catch is HistoryIndexFileError {
                // No saved index yet.
            }
        }
        let loaded = try await HistoryIndexLoader.load(store: store, userID: userID)
        logger.info("history index of user \(userID) built from the store",
                    metadata: ["fixes": "\(loaded.index.fixCount)", "seconds": "\(Self.seconds(since: started))"])
        await builtHook?()
        return ObtainedIndex(loaded: loaded, fixesSinceSave: nil)
    }

    /// Writes the user's index when it changed since it was saved.
    func saveIndex(userID: UserID) {
        guard let indexDirectory, let file = indexFile(userID: userID), let loaded = takeIndexToSave(userID: userID) else { return }
        let started = ContinuousClock.now
        do {
            try FileManager.default.createDirectory(at: indexDirectory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try HistoryIndexFile.write(loaded, to: file)
            // The user was deleted while the file was written: it goes too.
            guard knows(userID: userID) else {
                try? FileManager.default.removeItem(at: file)
                return
            }
            logger.info("history index of user \(userID) saved",
                        metadata: ["fixes": "\(loaded.index.fixCount)", "seconds": "\(Self.seconds(since: started))"])
        } catch {
            logger.warning("the history index of user \(userID) could not be saved: \(error)")
        }
    }

    /// Reads the saved indices at start (so the first page after a restart does not wait for
    /// them), saves indices as they are built or grow, follows other processes' deletions
    /// (``followRemovals()``), and saves what changed at shutdown.
    public func run() async throws {
        for userID in usersWithSavedIndex() {
            guard !Task.isShuttingDownGracefully else { break }
            _ = try? await withIndex(userID: userID) { _ in true }
        }
        try? await cancelWhenGracefulShutdown { [self] in
            await withDiscardingTaskGroup { group in
                group.addTask { await self.followRemovals() }
                for await userID in saveRequests {
                    saveIndex(userID: userID)
                }
                group.cancelAll()
            }
        }
        for userID in usersWithUnsavedIndex {
            saveIndex(userID: userID)
        }
    }

    private static func seconds(since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        return String(format: "%.2f", Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
