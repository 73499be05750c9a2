import Foundation
import Hummingbird

extension Request {
    /// The JSON body. A body a form or a `no-cors` fetch sends (`text/plain`, form-encoded) is a 415.
    /// - Throws: a 415 for those, a 400 for a body that is not the JSON object expected.
    func decodeJSON<T: Decodable>(_ type: T.Type = T.self, context: TravelogRequestContext) async throws -> T {
        if let type = headers[.contentType].map(CrossSiteRequestMiddleware.mediaType),
           CrossSiteRequestMiddleware.formTypes.contains(type) || type == "multipart/form-data" {
            throw APIError.unsupportedMediaType("\(type): expected application/json")
        }
        var request = self
        let bytes = try await request.collectBytes(context: context)
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch {
            throw APIError.badRequest("the body is not the JSON object expected: \(error)")
        }
    }
}
