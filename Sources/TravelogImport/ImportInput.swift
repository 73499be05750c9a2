import Foundation
import TravelogFormats

/// Something to import: a file, or a file inside an archive, opened as a stream when it is read.
public struct ImportInput: Sendable {
    /// The name the report shows (a path, or `archive.zip/Takeout/…/Records.json`).
    public var name: String
    /// The file name alone, for the import's record.
    public var fileName: String
    /// Opens a new stream from the start.
    public var open: @Sendable () throws(FormatError) -> any ByteSource
    /// The format, when it is known already (an archive's entries are recognised when listed).
    public var format: FileFormat?

    public init(name: String, fileName: String, open: @escaping @Sendable () throws(FormatError) -> any ByteSource) {
        self.name = name
        self.fileName = fileName
        self.open = open
    }

    /// A file on disk.
    public static func file(_ path: String) -> ImportInput {
        ImportInput(name: path, fileName: URL(fileURLWithPath: path).lastPathComponent) { () throws(FormatError) in
            try FileByteSource(path: path)
        }
    }

    /// Recognises the format from the first bytes.
    public func detect() throws(FormatError) -> FormatDetector.Detection {
        var source = try open()
        return FormatDetector.detect(prefix: try source.readBytes(upTo: FormatDetector.prefixLength))
    }
}
