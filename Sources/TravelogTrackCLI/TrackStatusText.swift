import Foundation
import TravelogTracker
import TravelogFormats

/// `travelog track status` for people.
enum TrackStatusText {
    static func render(_ status: TrackerStatus) -> String {
        func time(_ date: Date?) -> String { date.map(ISO8601TimeFormatter.string) ?? "never" }
        var lines = [
            "last fix:     \(status.lastFixFeature ?? "none") (received \(time(status.lastFixReceivedAt)))",
            "queue:        \(status.queuedCount) of \(status.capacity) fixes waiting"
                + (status.oldestQueuedFixTime.map { ", oldest from \(time($0))" } ?? ""),
            "last upload:  \(time(status.lastUploadAt))" + (status.lastUploadCount.map { ", \($0) fixes" } ?? ""),
        ]
        if let error = status.lastUploadError { lines.append("upload error: \(error) (\(time(status.lastUploadErrorAt)))") }
        if status.droppedCount > 0 { lines.append("dropped:      \(status.droppedCount) oldest fixes (the queue was full)") }
        if let source = status.sourceState { lines.append("source:       \(source)") }
        if let heading = status.lastHeading { lines.append("heading:      \(heading)") }
        return lines.joined(separator: "\n")
    }
}
