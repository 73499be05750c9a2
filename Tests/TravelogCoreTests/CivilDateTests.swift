import Foundation
import Testing
import TravelogCore

@Suite("CivilDate and calendar periods")
struct CivilDateTests {
    @Test("days since 1970 round-trip and agree with Foundation's Gregorian calendar")
    func agreesWithFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        // From 1600 to about 2400: Foundation switches to the Julian calendar before 1582.
        for days in stride(from: -135_000, through: 157_000, by: 97) {
            let date = CivilDate(daysSince1970: days)
            #expect(date.daysSince1970 == days)
            let components = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400))
            #expect(components.year == date.year && components.month == date.month && components.day == date.day,
                    "day \(days)")
        }
    }

    @Test("impossible dates cannot be made", arguments: [(2023, 2, 29), (2024, 13, 1), (2024, 4, 31), (2024, 1, 0)])
    func impossible(year: Int, month: Int, day: Int) {
        #expect(CivilDate(year: year, month: month, day: day) == nil)
    }

    @Test("an instant falls on the local day of its offset")
    func localDay() {
        // 2024-03-31T23:30:00Z is already April 1st in Berlin (+02:00) and still March 31st in New York.
        let instant = 1_711_927_800.0
        #expect(CivilDate(secondsSince1970: instant, utcOffsetSeconds: 7200).description == "2024-04-01")
        #expect(CivilDate(secondsSince1970: instant, utcOffsetSeconds: -4 * 3600).description == "2024-03-31")
        #expect(CivilDate(secondsSince1970: -1, utcOffsetSeconds: 0).description == "1969-12-31")
    }

    @Test("ISO weeks follow the Thursday rule", arguments: [
        ((2021, 1, 3), "2020-W53"), ((2021, 1, 4), "2021-W01"), ((2024, 12, 30), "2025-W01"),
        ((2026, 11, 22), "2026-W47"), ((2020, 12, 31), "2020-W53"),
    ])
    func isoWeeks(date: (Int, Int, Int), label: String) throws {
        let civil = try #require(CivilDate(year: date.0, month: date.1, day: date.2))
        #expect(CalendarPeriod.week.label(of: civil) == label)
    }

    @Test("period labels")
    func labels() throws {
        let date = try #require(CivilDate(year: 2024, month: 5, day: 1))
        #expect(CalendarPeriod.day.label(of: date) == "2024-05-01")
        #expect(CalendarPeriod.month.label(of: date) == "2024-05")
        #expect(CalendarPeriod.year.label(of: date) == "2024")
        #expect(date.isoWeekday == 3)
    }
}
