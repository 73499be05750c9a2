/// Why a file could not be read as a photo. Each case names the file.
public enum PhotoMetadataError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read (`errno`'s text).
    case unreadable(path: String, reason: String)
    /// The file is empty.
    case empty(path: String)
    /// Exiv2 does not recognise the data as an image format it reads.
    case notAnImage(path: String)
    /// Exiv2 recognised the format but the metadata is damaged: its error code and message (the
    /// message names the offset or the box when Exiv2 knows it).
    case damaged(path: String, exiv2Code: Int, message: String)

    public var path: String {
        switch self {
        case .unreadable(let path, _), .empty(let path), .notAnImage(let path), .damaged(let path, _, _): path
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): cannot be read: \(reason)"
        case .empty(let path): "\(path): the file is empty"
        case .notAnImage(let path): "\(path): not an image format Travelog reads (JPEG, HEIF/HEIC, TIFF and raw, PNG, WebP)"
        case .damaged(let path, let code, let message): "\(path): damaged metadata (Exiv2 error \(code)): \(message)"
        }
    }
}
