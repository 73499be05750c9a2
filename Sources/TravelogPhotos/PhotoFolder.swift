import Foundation
import TravelogStore

/// The server's photo folder (beside the database, see `travelog photos add --help`):
/// `thumbnails/ab/abcdef…-small.jpg` by content digest (shared: the same content is the same
/// thumbnail), and `originals/USER-ID/DIGEST.EXT` for uploaded files (each user's own). Made
/// readable by the owner only.
public struct PhotoFolder: Sendable {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    public var thumbnails: PhotoThumbnails { PhotoThumbnails(directory: root.appendingPathComponent("thumbnails", isDirectory: true)) }

    /// Where a user's uploads are kept.
    public func originals(userID: UserID) -> URL {
        root.appendingPathComponent("originals", isDirectory: true).appendingPathComponent(String(userID.rawValue), isDirectory: true)
    }
}
