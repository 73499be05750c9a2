/// A `RecordRejection` thrown out of a reader's field helpers, caught where the record is
/// returned and handed out as `.rejected`.
struct RejectedRecord: Error {
    var rejection: RecordRejection

    init(_ position: SourcePosition, _ reason: RecordRejection.Reason) {
        rejection = RecordRejection(position: position, reason: reason)
    }
}
