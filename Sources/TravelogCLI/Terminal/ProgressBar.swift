import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress display on standard error, shown only when standard error is a terminal
/// (quiet in pipes, logs and CI). Redraws at most ten times a second.
final class ProgressBar: @unchecked Sendable {
    private let enabled: Bool
    private let label: String
    private let started = Date()
    private var lastDraw = Date.distantPast
    private let lock = NSLock()

    init(label: String, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.enabled = enabled
        self.label = label
    }

    /// Updates the display with bytes done (of total, when known) and items done.
    func update(bytes: Int, totalBytes: Int?, items: Int, itemName: String) {
        draw { elapsed in
            Self.render(label: label, bytes: bytes, totalBytes: totalBytes, items: items, itemName: itemName, elapsedSeconds: elapsed)
        }
    }

    /// Updates the display with items done of a known total.
    func update(items: Int, totalItems: Int, itemName: String) {
        draw { elapsed in
            Self.render(label: label, items: items, totalItems: totalItems, itemName: itemName, elapsedSeconds: elapsed)
        }
    }

    /// Redraws the line `line(seconds since start)`, at most ten times a second.
    private func draw(_ line: (Double) -> String) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line(now.timeIntervalSince(started))).utf8))
    }

    /// Clears the line (before the summary is printed).
    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    /// The text of one progress line: bar, bytes, items, rate and time left.
    static func render(label: String, bytes: Int, totalBytes: Int?, items: Int, itemName: String,
                       elapsedSeconds: Double) -> String {
        var parts = [label]
        if let totalBytes, totalBytes > 0 {
            let fraction = min(1, Double(bytes) / Double(totalBytes))
            parts.append(bar(fraction))
            parts.append(String(Int(fraction * 100)) + "%")
            parts.append(Self.bytes(bytes) + "/" + Self.bytes(totalBytes))
            if fraction > 0, fraction < 1, elapsedSeconds > 0 {
                parts.append("ETA " + Self.duration(elapsedSeconds / fraction - elapsedSeconds))
            }
        } else {
            parts.append(Self.bytes(bytes))
        }
        parts.append("\(items) \(itemName)")
        if elapsedSeconds > 0 { parts.append("\(Int(Double(items) / elapsedSeconds))/s") }
        return parts.joined(separator: "  ")
    }

    /// The text of one progress line counting items of a known total: bar, items, rate and time left.
    static func render(label: String, items: Int, totalItems: Int, itemName: String, elapsedSeconds: Double) -> String {
        let fraction = totalItems > 0 ? min(1, Double(items) / Double(totalItems)) : 1
        var parts = [label, bar(fraction), String(Int(fraction * 100)) + "%", "\(items)/\(totalItems) \(itemName)"]
        if elapsedSeconds > 0 { parts.append("\(Int(Double(items) / elapsedSeconds))/s") }
        if fraction > 0, fraction < 1, elapsedSeconds > 0 { parts.append("ETA " + duration(elapsedSeconds / fraction - elapsedSeconds)) }
        return parts.joined(separator: "  ")
    }

    /// A bar of 24 characters, `fraction` of it filled.
    static func bar(_ fraction: Double) -> String {
        let width = 24
        let filled = Int(fraction * Double(width))
        return "[" + String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled) + "]"
    }

    static func bytes(_ count: Int) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f ", value) + units[unit]
    }

    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        return total >= 3600 ? String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
                             : String(format: "%d:%02d", total / 60, total % 60)
    }
}
