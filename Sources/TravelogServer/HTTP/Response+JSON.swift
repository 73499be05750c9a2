import Foundation
import HTTPTypes
import Hummingbird

extension Response {
    /// A JSON response of an `Encodable` value.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok,
                     contentType: String = "application/json; charset=utf-8") throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return json(data: try encoder.encode(value), status: status, contentType: contentType)
    }

    /// A JSON response of ready bytes.
    static func json(data: Data, status: HTTPResponse.Status = .ok, contentType: String = "application/json; charset=utf-8") -> Response {
        bytes(data, status: status, contentType: contentType)
    }

    static func text(_ text: String, status: HTTPResponse.Status = .ok, contentType: String = "text/plain; charset=utf-8") -> Response {
        bytes(Data(text.utf8), status: status, contentType: contentType)
    }

    static func bytes(_ data: Data, status: HTTPResponse.Status = .ok, contentType: String,
                      extraHeaders: HTTPFields = [:]) -> Response {
        var headers = extraHeaders
        headers[.contentType] = contentType
        headers[.contentLength] = String(data.count)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension Request {
    /// The body, up to the context's limit (a larger one is a 413 that names the limit).
    mutating func collectBytes(context: TravelogRequestContext) async throws -> [UInt8] {
        do {
            let buffer = try await collectBody(upTo: context.maxUploadSize)
            return Array(buffer.readableBytesView)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge(limitBytes: context.maxUploadSize)
        }
    }

    /// A query parameter, percent-decoded (`nil` when absent).
    func query(_ name: String) -> String? {
        uri.queryParameters[Substring(name)].map(String.init)
    }
}
