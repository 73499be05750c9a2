/// What an archive may cost to open and read, checked against its central directory before
/// anything is inflated: a ZIP archive is a promise of work (a 100 MB archive can list 2 million
/// entries, or point 16 entries at one deflated stream), and these bound the work by what the
/// archive holds, not by what it claims.
///
/// The defaults are generous for a real Google Takeout (thousands of files; a 1 GB archive of 37
/// million locations inflates to about 10 GB) and refuse the known bombs (David Fifield, "A better
/// zip bomb", WOOT 2019: overlapping entries; 42.zip: nested ratio ~1000:1).
public struct ZipArchiveLimits: Hashable, Sendable {
    /// The most entries (files and folders) the central directory may list.
    public var maximumEntries: Int
    /// The most bytes all entries together may inflate to (their declared sizes, which reading
    /// holds them to).
    public var maximumInflatedBytes: Int
    /// The most an entry may inflate per compressed byte (deflate's own maximum is about 1032).
    public var maximumCompressionRatio: Int
    /// Entries up to this size inflated are not held to the ratio (a small file of repeated bytes
    /// is harmless whatever its ratio).
    public var ratioExemptBytes: Int

    /// 100,000 entries, 32 GiB inflated, a ratio of 200 for entries over 1 MiB.
    public static let `default` = ZipArchiveLimits()

    public init(maximumEntries: Int = 100_000, maximumInflatedBytes: Int = 32 << 30,
                maximumCompressionRatio: Int = 200, ratioExemptBytes: Int = 1 << 20) {
        self.maximumEntries = maximumEntries
        self.maximumInflatedBytes = maximumInflatedBytes
        self.maximumCompressionRatio = maximumCompressionRatio
        self.ratioExemptBytes = ratioExemptBytes
    }
}
