import Foundation
import Logging
import TravelogSQLite

/// `travelog serve --backup-every 24h --backup-dir DIR [--backup-keep N]`: backups taken while the
/// server runs. When it starts, a backup is due if the newest in DIR is older than the interval (or
/// there is none); then one every interval. Each is logged; a failure is logged and tried again at
/// the next interval.
struct BackupSchedule: Sendable {
    let database: String
    let folder: String
    let intervalSeconds: Double
    let keep: Int

    /// Takes the backups until the task is cancelled (when the server stops).
    func run(logger: Logger = Logger(label: "travelog")) async {
        var due = SQLiteBackupRotation.newest(in: folder).map { $0.addingTimeInterval(intervalSeconds) } ?? Date()
        logger.info("scheduled backups of \(database) every \(BackupInterval.text(seconds: intervalSeconds)) into \(folder), keeping \(keep)")
        while !Task.isCancelled {
            let wait = due.timeIntervalSinceNow
            if wait > 0 {
                do { try await Task.sleep(for: .milliseconds(Int64(wait * 1000))) } catch { return }
            }
            let started = Date()
            do {
                let result = try await backUp(at: started)
                logger.info("backup written", metadata: [
                    "path": "\(result.path)", "bytes": "\(result.bytes)",
                    "seconds": "\(String(format: "%.2f", Date().timeIntervalSince(started)))",
                    "removed": "\(result.removed.count)",
                ])
            } catch {
                logger.error("backup failed: \(error)")
            }
            due = started.addingTimeInterval(intervalSeconds)
        }
    }
}

extension BackupSchedule {
    /// One backup on a thread of its own: the copy sleeps between its steps, which must not hold one
    /// of the few threads the server's tasks run on.
    func backUp(at date: Date) async throws -> BackupCommand.Result {
        let (database, folder, keep) = (database, folder, keep)
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Swift.Result { try BackupCommand.backUp(database: database, file: nil, dir: folder, keep: keep, now: date) })
            }
        }
    }
}

/// A duration given as `90s`, `15m`, `24h` or `7d` (a bare number is seconds).
enum BackupInterval {
    static func seconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let last = trimmed.last else { return nil }
        let multiplier = units[last]
        guard let number = Double(multiplier == nil ? trimmed : String(trimmed.dropLast())), number.isFinite, number > 0 else { return nil }
        return number * (multiplier ?? 1)
    }

    static func text(seconds: Double) -> String {
        for (unit, size) in [("d", 86400.0), ("h", 3600), ("m", 60)] where seconds >= size && seconds.truncatingRemainder(dividingBy: size) == 0 {
            return "\(Int(seconds / size))\(unit)"
        }
        return seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
    }
}
