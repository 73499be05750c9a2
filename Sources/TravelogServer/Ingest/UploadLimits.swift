import TravelogFormats

/// What one upload (`POST /api/v1/imports`) may cost besides its size (`maxUploadBytes`): how
/// many parts a multipart form may have, and what an archive in it may hold.
public struct UploadLimits: Sendable {
    /// The most parts a `multipart/form-data` upload may have (files and fields); the next is a 413.
    public var maximumParts: Int
    /// The most entries, inflated bytes and inflated/compressed ratio of an archive; over them, a 413.
    public var archive: ZipArchiveLimits

    /// 1,000 parts; `ZipArchiveLimits.default` (100,000 entries, 32 GiB, a ratio of 200).
    public static let `default` = UploadLimits()

    public init(maximumParts: Int = 1_000, archive: ZipArchiveLimits = .default) {
        self.maximumParts = maximumParts
        self.archive = archive
    }
}
