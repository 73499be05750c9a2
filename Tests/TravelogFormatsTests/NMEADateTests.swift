import Testing
import TravelogFormats

@Suite("NMEA dates and times of day")
struct NMEADateTests {
    @Test("days since 1970 round-trip over four centuries, leap days included")
    func roundTrip() throws {
        for days in stride(from: -200_000, through: 200_000, by: 37) {
            let date = try #require(NMEADate(daysSince1970: days))
            #expect(date.daysSince1970 == days)
        }
    }

    @Test("known days since 1970", arguments: [
        (NMEADate(year: 1970, month: 1, day: 1), 0), (NMEADate(year: 2001, month: 1, day: 1), 11_323),
        (NMEADate(year: 2000, month: 2, day: 29), 11_016), (NMEADate(year: 1969, month: 12, day: 31), -1),
        (NMEADate(year: 2019, month: 3, day: 9), 17_964),
    ])
    func known(date: NMEADate?, days: Int) {
        #expect(date?.daysSince1970 == days)
    }

    @Test("only real dates exist", arguments: [(2019, 2, 29), (2100, 2, 29), (2019, 4, 31), (2019, 13, 1), (2019, 0, 1), (0, 1, 1)])
    func impossible(year: Int, month: Int, day: Int) {
        #expect(NMEADate(year: year, month: month, day: day) == nil)
    }

    @Test("2000 and 2024 have a February 29")
    func leapYears() {
        #expect(NMEADate(year: 2000, month: 2, day: 29) != nil)
        #expect(NMEADate(year: 2024, month: 2, day: 29) != nil)
    }

    @Test("a --date is YYYY-MM-DD or YYYYMMDD", arguments: [
        ("2019-03-08", NMEADate(year: 2019, month: 3, day: 8)), ("20190308", NMEADate(year: 2019, month: 3, day: 8)),
        ("2019-3-8", nil), ("2019/03/08", nil), ("20190230", nil), ("", nil), ("2019-03-0x", nil),
    ])
    func parsing(text: String, date: NMEADate?) {
        #expect(NMEADate(text) == date)
    }

    @Test("adding days crosses months and years")
    func adding() {
        #expect(NMEADate(year: 2019, month: 3, day: 8)?.adding(days: 1) == NMEADate(year: 2019, month: 3, day: 9))
        #expect(NMEADate(year: 2019, month: 12, day: 31)?.adding(days: 1) == NMEADate(year: 2020, month: 1, day: 1))
        #expect(NMEADate(year: 2020, month: 3, day: 1)?.adding(days: -1) == NMEADate(year: 2020, month: 2, day: 29))
    }

    @Test("a week-rollover date moves forward 1024 weeks at a time until it is not before the cutoff")
    func rollover() throws {
        let cutoff = try #require(NMEADate(year: 2019, month: 1, day: 1))
        // april6_2019.log: a Telit HE910 wrote 220899 in April 2019; 1999-08-22 + 1024 weeks = 2019-04-07.
        let written = try #require(NMEADate(year: 1999, month: 8, day: 22))
        #expect(written.correctingWeekRollover(notBefore: cutoff) == NMEADate(year: 2019, month: 4, day: 7))
        let twice = try #require(NMEADate(year: 1980, month: 1, day: 6))
        #expect(twice.correctingWeekRollover(notBefore: cutoff) == NMEADate(year: 2019, month: 4, day: 7))
        #expect(cutoff.correctingWeekRollover(notBefore: cutoff) == cutoff)
    }

    @Test("times of day: description, seconds, and midnight wrap only for a backward jump of over half a day")
    func timeOfDay() throws {
        let late = try #require(NMEATimeOfDay(hour: 23, minute: 59, second: 59, nanoseconds: 500_000_000))
        let early = try #require(NMEATimeOfDay(hour: 0, minute: 0, second: 0))
        #expect(late.description == "23:59:59.500000000")
        #expect(late.secondsSinceMidnight == 86_399.5)
        #expect(early.hasWrappedPastMidnight(since: late))
        #expect(!late.hasWrappedPastMidnight(since: early))
        let noon = try #require(NMEATimeOfDay(hour: 12, minute: 0, second: 0))
        #expect(!noon.hasWrappedPastMidnight(since: late))
        #expect(NMEATimeOfDay(hour: 23, minute: 59, second: 60) != nil)  // a leap second
        #expect(NMEATimeOfDay(hour: 24, minute: 0, second: 0) == nil)
    }
}
