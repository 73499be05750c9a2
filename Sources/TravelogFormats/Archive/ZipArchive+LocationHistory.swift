/// What Travelog makes of one file entry of an archive: read it in a format, skip it (and why), or
/// fail it (its first bytes could not be read).
public struct ZipEntryDetection: Hashable, Sendable {
    /// Why an entry is not imported.
    public enum SkipReason: Hashable, Sendable, CustomStringConvertible {
        /// Valid data that is not location history (Google's Settings.json, Timeline Edits).
        case notLocationHistory(String)
        /// Content that matches no format Travelog reads (photos, HTML, mail…).
        case unrecognized
        /// An archive inside the archive (a `.zip`, a `.kmz`), which is not opened.
        case nestedArchive
        /// An entry of 0 bytes.
        case empty

        public var description: String {
            switch self {
            case .notLocationHistory(let what): "not location history: \(what)"
            case .unrecognized: "not a location file Travelog recognises"
            case .nestedArchive: "an archive inside the archive (not opened)"
            case .empty: "empty"
            }
        }
    }

    public enum Outcome: Hashable, Sendable {
        /// Location history in this format: open it with `ZipArchive.contents(of:)` and
        /// `FileFormat.makeReader(source:)`.
        case read(FileFormat)
        case skipped(SkipReason)
        /// The entry's first bytes could not be read (corrupt, encrypted, unsupported compression).
        case failed(FormatError)
    }

    /// The entry, as listed in the archive.
    public let entry: ZipEntry
    /// What to do with it.
    public let outcome: Outcome

    public init(entry: ZipEntry, outcome: Outcome) {
        self.entry = entry
        self.outcome = outcome
    }

    /// The format to read the entry in, when it is location history.
    public var format: FileFormat? {
        switch outcome {
        case .read(let format): return format
        case .skipped, .failed: return nil
        }
    }
}

extension ZipArchive {
    /// Every file entry (folders left out) with what its content says it is, in the archive's order:
    /// the way to find the location history in a Google Takeout archive whatever the language of
    /// its folder names (`Location History (Timeline)/Records.json`, `Semantic Location
    /// History/2019/2019_JANUARY.json`, `Standortverlauf/…`).
    ///
    /// Each entry's first `FormatDetector.prefixLength` bytes (64 KB) are inflated and given to
    /// `FormatDetector`, so the cost is at most 64 KB of inflating per entry, however large the
    /// entries are. An entry that cannot be read is reported `.failed` and the others still listed.
    public func detectedEntries() -> [ZipEntryDetection] {
        var detections: [ZipEntryDetection] = []
        for entry in entries where !entry.isDirectory {
            detections.append(detection(of: entry))
        }
        return detections
    }

    /// What one entry is, as `detectedEntries()` finds it (for a caller that checks between entries
    /// whether to go on).
    public func detection(of entry: ZipEntry) -> ZipEntryDetection {
        ZipEntryDetection(entry: entry, outcome: detect(entry))
    }

    /// The entries of `detectedEntries()` to import (`.read`), each with its format.
    public func locationHistoryEntries() -> [(entry: ZipEntry, format: FileFormat)] {
        // A plain loop: Swift 6.3.1's optimizer crashes on the compactMap/map form of this in release builds.
        var found: [(entry: ZipEntry, format: FileFormat)] = []
        for detection in detectedEntries() {
            if let format = detection.format { found.append((detection.entry, format)) }
        }
        return found
    }

    /// The KML document of a KMZ: `doc.kml` at the root when present, otherwise the first `.kml`
    /// entry at the root, otherwise the first `.kml` entry anywhere (the rule of Google's KMZ
    /// documentation: the first `.kml` file is the document; others are referenced by it).
    /// - Throws: `FormatError.zip` with `.noKMLEntry` when the archive holds no `.kml` file.
    public func kmlDocumentEntry() throws(FormatError) -> ZipEntry {
        let kmlFiles = entries.filter { !$0.isDirectory && $0.fileExtension == "kml" }
        let atRoot = kmlFiles.filter { $0.pathComponents.count == 1 }
        if let document = atRoot.first(where: { $0.fileName.lowercased() == "doc.kml" }) ?? atRoot.first ?? kmlFiles.first {
            return document
        }
        throw .zip(ZipArchiveError(.noKMLEntry, archivePath: path))
    }

    private func detect(_ entry: ZipEntry) -> ZipEntryDetection.Outcome {
        if entry.uncompressedSizeBytes == 0 { return .skipped(.empty) }
        let prefix: [UInt8]
        do {
            var source = try contents(of: entry)
            prefix = try source.readBytes(upTo: FormatDetector.prefixLength)
        } catch {
            return .failed(error)
        }
        // A local file header signature (APPNOTE 4.3.7): an archive inside this one.
        if prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .skipped(.nestedArchive) }
        switch FormatDetector.detect(prefix: prefix) {
        case .format(let format): return .read(format)
        case .notLocationHistory(let what): return .skipped(.notLocationHistory(what))
        case .unknown: return .skipped(.unrecognized)
        }
    }
}
