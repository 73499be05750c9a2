import Foundation
import Hummingbird
import TravelogFormats

/// One file of an upload: a byte range of the request's spooled body, read in place.
struct UploadedFile: Sendable {
    /// The file's name, for reports (a base name, never a path used on disk).
    let name: String
    /// Where the file lies in the body.
    let byteRange: Range<Int>
}

/// The files and the `device` field of a `multipart/form-data` upload. Each file is a byte range
/// of the body, which is spooled once (1 MB in memory at most, beyond that in its file): however
/// many parts the form has, the request holds no copy of any of them.
struct UploadForm {
    var files: [UploadedFile] = []
    var deviceName: String?

    /// Reads the form's parts, keeping where each file lies.
    /// - Parameter maximumParts: the most parts (files and fields) accepted.
    /// - Throws: `APIError.http(413)` naming the limit past `maximumParts` parts; `.badRequest` for
    ///   a body that is not valid multipart/form-data or holds no file.
    init(body: SpooledBody, contentType: String, maximumParts: Int) throws(APIError) {
        do throws(FormatError) {
            let reader = try MultipartFormReader(source: body.byteSource(),
                                                 boundary: try MultipartFormReader.boundary(fromContentType: contentType),
                                                 maximumParts: maximumParts)
            while var part = try reader.nextPart() {
                if let filename = part.filename {
                    var length = 0
                    while true {
                        let block = try part.content.readBytes(upTo: 1 << 16)
                        if block.isEmpty { break }
                        length += block.count
                    }
                    files.append(UploadedFile(name: UploadRoutes.baseName(filename) ?? "upload",
                                              byteRange: part.contentByteOffset..<(part.contentByteOffset + length)))
                } else if part.name == "device" {
                    deviceName = try part.readText(limitBytes: 256).trimmingCharacters(in: .whitespacesAndNewlines)
                }
            }
        } catch .multipart(let error) where error.kind == .tooManyParts(limit: maximumParts) {
            throw .http(status: .contentTooLarge,
                        "the form has more than \(maximumParts) parts, the limit of parts (files and fields) per upload")
        } catch {
            throw .badRequest("the form is not valid multipart/form-data: \(error)")
        }
        guard !files.isEmpty else { throw .badRequest("the form holds no file (send it as a part with a filename)") }
    }
}
