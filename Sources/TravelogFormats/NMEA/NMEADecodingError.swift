/// Why a sentence could not be decoded. The reader reports it as a `.rejected` record.
public struct NMEADecodingError: Error, Hashable, Sendable {
    public let reason: RecordRejection.Reason

    public init(_ reason: RecordRejection.Reason) { self.reason = reason }
}
