import TravelogFormats

/// `multipart/form-data` bodies written by hand, CRLF by CRLF (RFC 2046 §5.1.1), and read back.
enum MultipartTestBody {
    struct Part {
        var headers: [String]
        var content: [UInt8]

        static func field(_ name: String, _ value: String) -> Part {
            Part(headers: ["Content-Disposition: form-data; name=\"\(name)\""], content: Array(value.utf8))
        }

        static func file(_ name: String, filename: String, type: String, _ content: [UInt8]) -> Part {
            Part(headers: ["Content-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"",
                           "Content-Type: \(type)"], content: content)
        }
    }

    /// What a reader made of one part.
    struct ReadPart: Equatable {
        var name: String
        var filename: String?
        var contentType: String?
        var content: [UInt8]
    }

    static func make(_ parts: [Part], boundary: String, preamble: String = "", epilogue: String = "",
                     closing: Bool = true) -> [UInt8] {
        var body = Array(preamble.utf8)
        if !preamble.isEmpty { body += Array("\r\n".utf8) }
        for (index, part) in parts.enumerated() {
            body += Array(((index == 0 ? "" : "\r\n") + "--\(boundary)\r\n").utf8)
            for header in part.headers { body += Array("\(header)\r\n".utf8) }
            body += Array("\r\n".utf8)
            body += part.content
        }
        if closing { body += Array("\r\n--\(boundary)--\r\n\(epilogue)".utf8) }
        return body
    }

    /// Every part of `body`, its content read `readBytes` at a time, the body handed out
    /// `chunkBytes` at a time.
    static func readAll(_ body: [UInt8], boundary: String, chunkBytes: Int = .max, readBytes: Int = 4096,
                        blockBytes: Int = 64 * 1024) throws(FormatError) -> [ReadPart] {
        let reader = try MultipartFormReader(source: MemoryByteSource(body, maximumChunkBytes: chunkBytes),
                                             boundary: boundary, blockBytes: blockBytes)
        var parts: [ReadPart] = []
        while var part = try reader.nextPart() {
            let content = try part.content.readAll(chunkBytes: readBytes)
            parts.append(ReadPart(name: part.name, filename: part.filename, contentType: part.contentType, content: content))
        }
        return parts
    }
}
