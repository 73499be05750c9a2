import Foundation
import TravelogAccounts
import TravelogPhotos
import TravelogStore

/// Deleting a user and everything theirs: the one path of `travelog user delete`,
/// `DELETE /api/v1/admin/users/{id}` and `DELETE /api/v1/account`.
///
/// First the store's rows, in every table, in one transaction (`AccountService.deleteUser`):
/// their sessions and device tokens go with them, and every process checks those against the
/// store at each request, so the next request with either is a 401. Then their files: the saved
/// map index (`user-ID.index` and a temporary file of it a crash left), their uploaded photos
/// (`originals/ID/`) and the thumbnails of photos no other user has (thumbnails are kept by content,
/// shared between users). A file that cannot be removed is reported, not fatal: the rows are gone.
public struct UserDeletion: Sendable {
    public let accounts: AccountService
    public let store: any TravelogStore
    /// Where map indices are saved (`nil`: they are not).
    public let historyIndexDirectory: URL?
    /// The photo folder (`nil`: the server keeps none).
    public let photoFolder: PhotoFolder?

    public init(accounts: AccountService, store: any TravelogStore, historyIndexDirectory: URL?, photoFolder: PhotoFolder?) {
        self.accounts = accounts
        self.store = store
        self.historyIndexDirectory = historyIndexDirectory
        self.photoFolder = photoFolder
    }

    /// What went besides the rows.
    public struct Report: Sendable, Equatable {
        /// Files removed: the map index, uploaded photos, thumbnails.
        public var removedFiles: [String] = []
        /// Files that are still there, with the reason.
        public var failures: [String] = []
    }

    /// Deletes the user's rows, then their files.
    /// - Throws: `AccountError` (inside it `StoreError.lastAdministrator` or `.unknownUser`) with nothing deleted.
    @discardableResult
    public func delete(userID: UserID) async throws(AccountError) -> Report {
        let digests = try await photoDigests(of: userID)
        try await accounts.deleteUser(id: userID)
        var report = Report()
        if let historyIndexDirectory {
            let prefix = "user-\(userID.rawValue).index"
            let names = (try? FileManager.default.contentsOfDirectory(atPath: historyIndexDirectory.path)) ?? []
            for name in names where name == prefix || name.hasPrefix(prefix + ".") {
                remove(historyIndexDirectory.appendingPathComponent(name), into: &report)
            }
        }
        if let photoFolder {
            remove(photoFolder.originals(userID: userID), into: &report)
            // Thumbnails are kept by content: those of a photo another user has stay.
            var kept = Set<String>()
            if let photos = store as? any PhotoStore, !digests.isEmpty {
                for other in (try? await store.users()) ?? [] {
                    kept.formUnion(((try? await photos.photos(PhotoQuery(userID: other.id))) ?? []).map(\.record.digest))
                }
            }
            let thumbnails = photoFolder.thumbnails
            for digest in digests.subtracting(kept) {
                for size in PhotoThumbnails.Size.allCases { remove(thumbnails.url(digest: digest, size: size), into: &report) }
            }
        }
        return report
    }

    private func photoDigests(of userID: UserID) async throws(AccountError) -> Set<String> {
        guard let photos = store as? any PhotoStore else { return [] }
        do throws(StoreError) {
            return Set(try await photos.photos(PhotoQuery(userID: userID)).map(\.record.digest))
        } catch {
            throw .store(error)
        }
    }

    private func remove(_ url: URL, into report: inout Report) {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            try FileManager.default.removeItem(at: url)
            report.removedFiles.append(url.path)
        } catch {
            report.failures.append("\(url.path): \(error.localizedDescription)")
        }
    }
}
