import Foundation
import TravelogFormats

extension ImportReport {
    /// The report as a JSON object (for `JSONSerialization`), as `travelog import --json` prints it
    /// and the upload API answers.
    public var jsonObject: [String: Any] {
        var object: [String: Any] = [
            "file": path,
            "format": format?.rawValue ?? NSNull(),
            "read": locationsRead,
            "imported": inserted,
            "duplicates": duplicates,
            "rejected": rejected,
            "untimed": untimedPoints,
            "visits": visitsRead,
            "skipped": skipped,
            "rejections": rejections.map { ["line": $0.position.line, "column": $0.position.column,
                                             "byteOffset": $0.position.byteOffset, "reason": $0.reason.description] },
        ]
        if let firstTimestamp, let lastTimestamp {
            object["firstTimestamp"] = ISO8601TimeFormatter.string(firstTimestamp)
            object["lastTimestamp"] = ISO8601TimeFormatter.string(lastTimestamp)
        }
        switch outcome {
        case .imported: object["status"] = "imported"
        case .skipped(let reason):
            object["status"] = "skipped"
            object["reason"] = reason
        case .failed(let reason):
            object["status"] = "failed"
            object["error"] = reason
        }
        return object
    }
}
