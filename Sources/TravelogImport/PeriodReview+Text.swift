import Foundation
import TravelogJournal

extension PeriodReview {
    /// The figures for people, label and value, in the order the image and `travelog review` show
    /// them ("Distance", "2,345.6 km on 212 days").
    public func figures(units: HistoryStatistics.UnitSystem) -> [(label: String, value: String)] {
        func distance(_ meters: Double) -> String {
            let value = units.distance(meters: meters)
            return (value >= 100 ? Self.grouped(value.rounded()) : String(format: "%.1f", value)) + " " + units.distanceUnit
        }
        func days(_ count: Int) -> String { "\(count) \(count == 1 ? "day" : "days")" }
        var found: [(String, String)] = [("Distance", "\(distance(distanceMeters)) on \(days(activeDays.count)) with fixes")]
        if !distanceByMode.isEmpty {
            found.append(("By transport mode", distanceByMode.prefix(5).map { "\($0.mode) \(distance($0.distanceMeters))" }.joined(separator: " · ")))
        }
        if !countries.isEmpty {
            found.append(("Countries (\(countries.count))", countries.prefix(12).map {
                "\($0.code) \(days($0.days.count))\($0.new ? " (new)" : "")"
            }.joined(separator: " · ")))
        }
        if !cities.isEmpty {
            let new = cities.filter(\.new).count
            found.append(("Cities (\(cities.count)\(new > 0 ? ", \(new) new" : ""))", cities.prefix(8).map {
                "\($0.name)\($0.new ? " (new)" : "")"
            }.joined(separator: " · ")))
        }
        if let home, let daysAway { found.append(("Days away from home", "\(days(daysAway.count)) (home: \(home.name))")) }
        if let longestTrip {
            found.append(("Longest trip", "\(distance(longestTrip.distanceMeters)) \(longestTrip.mode) on \(longestTrip.days[0])"))
        }
        if !places.isEmpty {
            found.append(("Most visited places", places.map { "\($0.name) (\($0.visits))" }.joined(separator: " · ")))
        }
        if let furthestFromHome {
            found.append(("Furthest from home", "\(distance(furthestFromHome.distanceMeters)) on \(furthestFromHome.days[0]) "
                          + String(format: "(%.4f, %.4f)", furthestFromHome.latitude, furthestFromHome.longitude)))
        }
        if let busiestDay { found.append(("Busiest day", "\(busiestDay.days[0]): \(distance(busiestDay.distanceMeters))")) }
        if let photos { found.append(("Photos", "\(photos.count) on \(days(photos.days.count))")) }
        return found
    }

    /// The review as lines of text (`travelog review` without `--json`).
    public func text(units: HistoryStatistics.UnitSystem) -> String {
        guard activeDays.count > 0 else { return "\(period): no locations in this period." }
        return (["\(period) in review (\(firstDay) to \(lastDay))"] + figures(units: units).map { "\($0.label): \($0.value)" })
            .joined(separator: "\n")
    }

    /// 12345 → "12,345".
    static func grouped(_ value: Double) -> String {
        let digits = String(Int(value))
        var result = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0, index % 3 == 0, character != "-" { result.append(",") }
            result.append(character)
        }
        return String(result.reversed())
    }
}
