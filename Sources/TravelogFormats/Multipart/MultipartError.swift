/// Why a `multipart/form-data` body (RFC 7578, RFC 2046 §5.1) or its `Content-Type` could not be
/// read: what is wrong, at which byte of the body, in which part.
public struct MultipartError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var kind: Kind
    /// The offset in the body (0-based) where the problem was found; 0 for a `Content-Type` error.
    public var byteOffset: Int
    /// The part being read (1-based), or `nil` before the first part.
    public var partNumber: Int?

    public init(_ kind: Kind, byteOffset: Int, partNumber: Int? = nil) {
        self.kind = kind
        self.byteOffset = byteOffset
        self.partNumber = partNumber
    }

    public enum Kind: Hashable, Sendable, CustomStringConvertible {
        /// The `Content-Type` is not `multipart/form-data` (`found` is its media type).
        case notMultipartFormData(found: String)
        /// The `Content-Type` has no `boundary` parameter.
        case missingBoundary
        /// The boundary is empty, longer than 70 characters or has a character RFC 2046 §5.1.1's
        /// `bchars` excludes.
        case invalidBoundary(String)
        /// The body has no `--boundary` line at all.
        case missingFirstBoundary
        /// The body ended inside a part, without the closing `--boundary--` (a cut-off upload).
        case missingClosingBoundary
        /// After `--boundary`, something else than `--`, optional white space and CRLF.
        case unexpectedAfterBoundary(found: String)
        /// A part's header block is longer than the reader's limit (`limitBytes`) or has no
        /// blank line ending it.
        case headerBlockTooLong(limitBytes: Int)
        /// A header line without a colon, or with a name that is not a token.
        case malformedHeaderLine(String)
        /// A part without `Content-Disposition: form-data; name=…` (RFC 7578 §4.2).
        case missingContentDisposition
        /// A field read as text (`MultipartPart.readText`) longer than `limitBytes`.
        case fieldTooLong(name: String, limitBytes: Int)
        /// A field read as text that is not valid UTF-8.
        case fieldNotUTF8(name: String)
        /// The body has more parts than the reader's limit.
        case tooManyParts(limit: Int)

        public var description: String {
            switch self {
            case .notMultipartFormData(let found): "expected Content-Type multipart/form-data, found '\(found)'"
            case .missingBoundary: "the Content-Type has no boundary parameter"
            case .invalidBoundary(let boundary): "invalid boundary '\(boundary)' (1 to 70 characters of RFC 2046's bchars)"
            case .missingFirstBoundary: "no boundary line in the body"
            case .missingClosingBoundary: "the body ends without the closing boundary (cut short?)"
            case .unexpectedAfterBoundary(let found): "expected CRLF or '--' after the boundary, found '\(found)'"
            case .headerBlockTooLong(let limit): "a part's headers are longer than \(limit) bytes or not ended by a blank line"
            case .malformedHeaderLine(let line): "malformed header line '\(line)'"
            case .missingContentDisposition: "a part without Content-Disposition: form-data; name=…"
            case .fieldTooLong(let name, let limit): "field '\(name)' is longer than \(limit) bytes"
            case .fieldNotUTF8(let name): "field '\(name)' is not valid UTF-8"
            case .tooManyParts(let limit): "more than \(limit) parts, the limit"
            }
        }
    }

    public var description: String {
        let part = partNumber.map { ", part \($0)" } ?? ""
        return "multipart body, byte \(byteOffset)\(part): \(kind)"
    }
}
