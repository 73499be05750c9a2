import Foundation

/// The parameters of an HTTP request, from its query and its form body together.
extension FormParameters {
    /// The query's parameters followed by the body's, so that a body value overrides a query
    /// value of the same name (`FormParameters.subscript` takes the last).
    ///
    /// The body is read as `application/x-www-form-urlencoded` when it is not empty and the
    /// content type is that, or absent (GPSLogger and old Traccar Clients post forms without
    /// one); a body of any other type is ignored.
    /// - Parameters:
    ///   - query: the request target's query, without or with its `?`.
    ///   - body: the request body.
    ///   - contentType: the `Content-Type` header, `nil` when absent (parameters such as
    ///     `; charset=utf-8` are allowed).
    /// - Throws: `IngestError.malformedEncoding(offset:)`, the offset counted in the query, or in
    ///   the body when the query is well-formed.
    public init(query: some StringProtocol, body: some Collection<UInt8>, contentType: String?) throws(IngestError) {
        let fromQuery = try FormParameters(query: query)
        let mediaType = Self.mediaType(of: contentType)
        guard !body.isEmpty, mediaType == nil || mediaType == "application/x-www-form-urlencoded" else {
            self = fromQuery
            return
        }
        self = fromQuery.appending(try FormParameters(encoded: body))
    }

    /// The media type of a `Content-Type` header in lower case, without its parameters
    /// (`application/json` for `Application/JSON; charset=utf-8`); `nil` when absent or blank.
    public static func mediaType(of contentType: String?) -> String? {
        guard let contentType else { return nil }
        let type = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let trimmed = type.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }
}
