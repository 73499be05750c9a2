/// Why a file could not be read as location history. Every case that concerns the content says
/// where (`SourcePosition`: byte offset, line, column) and what was expected; the command line adds
/// the file's name.
public enum FormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read.
    case cannotRead(path: String, reason: String)
    /// The bytes are not valid text in the file's encoding.
    case invalidEncoding(SourcePosition, expected: String)
    /// Something else than what the format allows at this place.
    case unexpected(SourcePosition, expected: String, found: String)
    /// The input ended while something was still open.
    case truncated(SourcePosition, expected: String)
    /// The file is not well-formed XML, or ends before its root element is closed (a GPX or KML
    /// cut short): what the XML parser found, where, and which elements were still open.
    case xml(XMLSyntaxError)
    /// The file could not be created or written (a full disk, no permission).
    case cannotWrite(path: String, reason: String)
    /// The content matches no format Travelog reads.
    case unrecognizedFormat(String)
    /// Valid data that is not location history (Google Timeline Edits, a settings file).
    case notLocationHistory(String)
    /// A ZIP archive (a Takeout `.zip`, a `.kmz`) or one of its entries is broken: which, and how.
    case zip(ZipArchiveError)
    /// A `multipart/form-data` body (an upload) is malformed: where, and how.
    case multipart(MultipartError)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .invalidEncoding(let position, let expected): "\(position): invalid text, expected \(expected)"
        case .unexpected(let position, let expected, let found): "\(position): expected \(expected), found \(found)"
        case .truncated(let position, let expected): "\(position): unexpected end of input, expected \(expected)"
        case .xml(let error): "\(error.position): \(error.kind)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .unrecognizedFormat(let reason): "not a format Travelog reads: \(reason)"
        case .notLocationHistory(let what): "not location history: \(what)"
        case .zip(let error): error.description
        case .multipart(let error): error.description
        }
    }
}
