import Foundation
import TravelogCore
import TravelogServer
import TravelogStore

extension RegionJSON {
    /// A region's states, for `travelog regions state --json`.
    struct StateList: Encodable {
        var name: String
        var states: [StateJSON]
    }
}

/// How `travelog regions` writes regions and transitions for people and for scripts.
enum RegionsOutput {
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// "circle 52.52,13.405 r 150 m" or "polygon of 5 positions".
    static func area(_ definition: RegionDefinition) -> String { area(definition.shape) }

    /// A region's or a privacy zone's area in a few words.
    static func area(_ shape: MonitoredRegion.Shape) -> String {
        switch shape {
        case .circle(let circle):
            "circle \(circle.center.latitude),\(circle.center.longitude) r \(circle.radiusMeters) m"
        case .polygon(let polygon):
            "polygon of \(polygon.exteriorRing.count) positions"
        }
    }

    /// "2024-06-01 10:12  left Home  (phone, detected)", in `timeZone`.
    static func line(_ transition: RegionTransitionJSON, timeZone: TimeZone) -> String {
        let verb = transition.transition == "enter" ? "arrived at" : "left"
        var wallClock = transition.time
        if let date = TimeRangeOptions.parse(transition.time, timeZone: timeZone, endOfDay: false) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
            wallClock = String(format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                               parts.hour ?? 0, parts.minute ?? 0)
        }
        return "\(wallClock)\t\(verb) \(TerminalText.escaped(transition.regionName))\t(\(TerminalText.escaped(transition.device)), \(transition.source))"
    }
}
