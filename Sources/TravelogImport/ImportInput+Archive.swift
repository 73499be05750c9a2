import Foundation
import TravelogFormats

/// What a file on disk holds for an import: itself, or, when it is a ZIP archive (a whole Google
/// Takeout `.zip`, a `.kmz`), the entries inside it whose content is location history, each read
/// as a stream straight out of the archive (never unpacked to disk).
public struct ImportFileContents: Sendable {
    /// What to import, in order.
    public var inputs: [ImportInput]
    /// Entries of an archive that are not location history (photos, mail, settings), counted.
    public var skippedEntries: Int
    /// The archive's own name, when the file was one.
    public var archiveName: String?

    /// Looks at `path`: a ZIP archive (by its signature) is listed, anything else is one input.
    /// - Parameters:
    ///   - byteRange: where the file lies in `path`, when it is a part of it (a file of a
    ///     multipart upload); `nil` for the whole file. A plain file's input then reads the whole
    ///     of `path`: the caller gives it the range's own stream.
    ///   - name: the name reports use (a path, or an upload's file name).
    ///   - limits: what an archive may cost (`ZipArchive(path:byteRange:limits:)`).
    /// - Throws: `FormatError` when an archive cannot be opened (its central directory is broken,
    ///   over `limits`, or has overlapping entries).
    public init(path: String, byteRange: Range<Int>? = nil, name: String, limits: ZipArchiveLimits = .default) throws(FormatError) {
        guard Self.isZipArchive(path: path, at: byteRange?.lowerBound ?? 0) else {
            var input = ImportInput.file(path)
            input.name = name
            input.fileName = URL(fileURLWithPath: name).lastPathComponent
            inputs = [input]
            skippedEntries = 0
            archiveName = nil
            return
        }
        let archive = SharedArchive(try ZipArchive(path: path, byteRange: byteRange, limits: limits))
        var inputs: [ImportInput] = []
        var skipped = 0
        for entry in archive.archive.entries where !entry.isDirectory {
            // A cancelled import (its client gone) stops here too; the importer then refuses every input.
            if Task.isCancelled { break }
            let detection = archive.archive.detection(of: entry)
            guard let format = detection.format else {
                skipped += 1
                continue
            }
            let entry = detection.entry
            var input = ImportInput(name: "\(name)/\(entry.name)", fileName: URL(fileURLWithPath: entry.name).lastPathComponent) {
                () throws(FormatError) in try archive.archive.contents(of: entry)
            }
            input.format = format
            inputs.append(input)
        }
        self.inputs = inputs
        skippedEntries = skipped
        archiveName = name
    }

    /// What to report of an archive besides its entries: that it holds no location history (a
    /// failure), or how many of its files were passed over; `nil` for a plain file.
    public var archiveSummary: ImportReport? {
        guard let archiveName else { return nil }
        if inputs.isEmpty {
            return ImportReport(path: archiveName, format: nil,
                                outcome: .failed(reason: "the archive holds no location history (\(skippedEntries) other files)"))
        }
        guard skippedEntries > 0 else { return nil }
        return ImportReport(path: archiveName, format: nil,
                            outcome: .skipped(reason: "\(skippedEntries) files in the archive are not location history"))
    }

    /// Whether the file starts with a ZIP signature (a local file header, or the end record of an
    /// empty archive).
    static func isZipArchive(path: String, at offset: Int = 0) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: UInt64(offset))) != nil, let data = try? handle.read(upToCount: 4) else { return false }
        let head = [UInt8](data)
        return head == [0x50, 0x4B, 0x03, 0x04] || head == [0x50, 0x4B, 0x05, 0x06]
    }
}

/// An archive shared by the inputs of its entries; they are read one at a time, by one task.
private final class SharedArchive: @unchecked Sendable {
    let archive: ZipArchive
    init(_ archive: ZipArchive) { self.archive = archive }
}
