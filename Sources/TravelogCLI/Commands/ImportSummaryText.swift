import Foundation
import TravelogFormats
import TravelogImport

/// How an import's summary reads, for people and for scripts.
enum ImportSummaryText {
    static func render(_ report: ImportReport) -> String {
        let format = report.format.map { " (\($0.displayName))" } ?? ""
        switch report.outcome {
        case .skipped(let reason):
            return "\(report.path): skipped, \(reason)"
        case .failed(let reason):
            return "\(report.path)\(format): error: \(reason); nothing from this file was stored"
        case .imported:
            var lines = ["\(report.path)\(format): read \(report.locationsRead) locations, imported \(report.inserted), "
                         + "duplicates \(report.duplicates), rejected \(report.rejected)"
                         + (report.visitsRead > 0 ? ", visits \(report.visitsRead)" : "")]
            for rejection in report.rejections {
                lines.append("  rejected at \(rejection.position): \(rejection.reason)")
            }
            if report.rejected > report.rejections.count + report.untimedPoints {
                lines.append("  … and \(report.rejected - report.rejections.count - report.untimedPoints) more")
            }
            if !report.skipped.isEmpty {
                lines.append("  passed over (not locations): "
                             + report.skipped.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: ", "))
            }
            if report.locationsRead == 0 && report.visitsRead == 0 && report.rejected == 0 && report.skipped.isEmpty {
                lines.append("  this file holds no locations")
            }
            if report.untimedPoints > 0 {
                lines.append("  rejected \(report.untimedPoints) points without a time (they cannot be placed in the history)"
                             + (report.format == .nmea ? "; a log without dates needs --date YYYY-MM-DD" : ""))
            }
            return lines.joined(separator: "\n")
        }
    }

    static func json(_ reports: [ImportReport]) -> String {
        let objects = reports.map(\.jsonObject)
        let data = (try? JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
