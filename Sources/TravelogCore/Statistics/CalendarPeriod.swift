/// A stretch of local calendar time that statistics are grouped by.
public enum CalendarPeriod: String, CaseIterable, Hashable, Sendable {
    case day, week, month, year

    /// The label of the period a local date falls in: `2024-05-01`, `2024-W18` (ISO week),
    /// `2024-05`, `2024`. Labels sort in time order.
    public func label(of date: CivilDate) -> String {
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        switch self {
        case .day: return date.description
        case .week:
            let week = date.isoWeek
            return "\(week.year)-W\(twoDigits(week.week))"
        case .month: return "\(date.year)-\(twoDigits(date.month))"
        case .year: return "\(date.year)"
        }
    }
}
