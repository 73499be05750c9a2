import Foundation

/// Traccar Client's JSON body (see `TraccarClientJSONBody` for the members read).
extension OsmAndRequestDecoder {
    /// Decodes the JSON body Traccar Client 9+ posts with `Content-Type: application/json`:
    /// `{"device_id", "location": {"timestamp", "coords": {…}, "battery": {…}, …}}`. Its speed is
    /// always in m/s, whatever `speedUnit` says; a negative speed, heading or battery level means
    /// unknown.
    /// - Parameter receivedAt: the fix's time when the body has no `location.timestamp`.
    /// - Throws: `IngestError.invalidJSON` (malformed, with the byte offset),
    ///   `.unexpectedJSONValue` (a member of the wrong kind, with its path and offset),
    ///   `.missingField("device_id")`, `("location.coords.latitude")`, `("location.coords.longitude")`,
    ///   `.outOfRange`, `.invalidTimestamp`.
    public func decode(jsonBody: some Collection<UInt8>, receivedAt: Date) throws(IngestError) -> IngestedLocation {
        let fields = try TraccarClientJSONBody.read(Array(jsonBody))
        return try fields.ingestedLocation(
            names: .init(deviceIdentifier: "device_id", latitude: "location.coords.latitude",
                         longitude: "location.coords.longitude"),
            receivedAt: receivedAt)
    }
}
