import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing
import TravelogCore
import TravelogJournal
@testable import TravelogServer
import TravelogStore
import TravelogTestSupport

/// A year (or a month) in review (issue 33.2): `GET /api/v1/review`, `travelog review`'s one
/// computation, checked against figures the test computes its own way from what it stored or from
/// the journal's entries, on a small generated history and on the real files of ../shared/fixtures.
@Suite("A year in review")
struct ReviewTests {
    static let utc = TimeZone(identifier: "UTC")!
    /// The test gazetteer's two places (`ServerFixture.gazetteer`): a home and a journey.
    static let berlin = Coordinate(validLatitude: 52.5200, longitude: 13.4050)!
    static let tokyo = Coordinate(validLatitude: 35.6895, longitude: 139.6917)!

    /// A fix's local day as the test counts it: in the zone of the place it is near.
    static func localDay(_ location: Location) -> String {
        let zone = TimeZone(identifier: location.coordinate.distanceMeters(to: berlin) < 1_000_000 ? "Europe/Berlin" : "Asia/Tokyo")!
        return CivilDate(secondsSince1970: location.timestamp.timeIntervalSince1970,
                         utcOffsetSeconds: zone.secondsFromGMT(for: location.timestamp)).description
    }

    static func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    static func get(_ client: some TestClientProtocol, _ uri: String) async throws -> (HTTPResponse.Status, ByteBuffer, String?) {
        try await client.execute(uri: uri, method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
            (response.status, response.body, response.headers[.contentType])
        }
    }

    static func json(_ client: some TestClientProtocol, _ uri: String) async throws -> [String: Any] {
        let (status, body, _) = try await get(client, uri)
        #expect(status == .ok, "\(uri)")
        return try #require(try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any])
    }

    /// A stay: a fix every 10 minutes at one spot (with a metre of wobble) from `from` to `to`.
    static func stay(at place: Coordinate, from: Date, to: Date) -> [Location] {
        stride(from: from.timeIntervalSince1970, through: to.timeIntervalSince1970, by: 600).enumerated().map { index, time in
            Location(coordinate: place.destination(bearingDegrees: Double(index % 4) * 90, distanceMeters: 1), horizontalAccuracyMeters: 5,
                     timestamp: Date(timeIntervalSince1970: time))
        }
    }

    /// A walk due east at 1.4 m/s, a fix every 30 s, for `meters`.
    static func walk(from start: Coordinate, at time: Date, meters: Double) -> [Location] {
        stride(from: 0.0, through: meters, by: 42).enumerated().map { index, distance in
            Location(coordinate: start.destination(bearingDegrees: 90, distanceMeters: distance), horizontalAccuracyMeters: 5,
                     speedMetersPerSecond: 1.4, timestamp: time.addingTimeInterval(Double(index) * 30))
        }
    }

    /// Stays in Berlin (the winter before, March), a walk to a park and back, a stay in Tokyo.
    static func generatedHistory() -> [Location] {
        let park = Self.berlin.destination(bearingDegrees: 90, distanceMeters: 3_000)
        var generated = Self.stay(at: Self.berlin, from: Self.at("2024-12-20T08:00:00Z"), to: Self.at("2024-12-21T12:00:00Z"))
        generated += Self.stay(at: Self.berlin, from: Self.at("2025-03-01T00:00:00Z"), to: Self.at("2025-03-03T10:00:00Z"))
        let out = Self.walk(from: Self.berlin, at: Self.at("2025-03-03T10:10:00Z"), meters: 3_000)
        generated += out + Self.stay(at: park, from: Self.at("2025-03-03T11:30:00Z"), to: Self.at("2025-03-03T13:30:00Z"))
        generated += Self.walk(from: park, at: Self.at("2025-03-03T13:40:00Z"), meters: 0).prefix(1)
        generated += Self.stay(at: Self.berlin, from: Self.at("2025-03-03T15:00:00Z"), to: Self.at("2025-03-05T06:00:00Z"))
        generated += Self.stay(at: Self.tokyo, from: Self.at("2025-03-05T12:00:00Z"), to: Self.at("2025-03-07T09:00:00Z"))
        return generated
    }

    @Test("a generated year: new countries, home, days away, the furthest point and the busiest day as the test counts them; PNG and PDF")
    func generatedYear() async throws {
        let fixture = try await ServerFixture.make()
        let store = fixture.app.store
        let generated = Self.generatedHistory()
        _ = try await store.insert(generated.map { StoredLocation(deviceID: fixture.adaPhone.id, location: $0, source: .api) })
        _ = try await fixture.app.journal.processor.process(device: fixture.adaPhone)
        let fixes = generated
        let park = Self.berlin.destination(bearingDegrees: 90, distanceMeters: 3_000)
        let out = Self.walk(from: Self.berlin, at: Self.at("2025-03-03T10:10:00Z"), meters: 3_000)

        try await fixture.test { client in
            let review = try await Self.json(client, "/api/v1/review?period=2025&timezone=UTC")
            // Days with fixes, counted from what was stored.
            let stored = Set(fixes.map(Self.localDay).filter { $0.hasPrefix("2025-") })
            let active = try #require(review["activeDays"] as? [String: Any])
            #expect(active["days"] as? [String] == stored.sorted())
            let countries = try #require(review["countries"] as? [[String: Any]])
            #expect(countries.map { "\($0["code"]!)" }.sorted() == ["DE", "JP"])
            #expect(countries.first { $0["code"] as? String == "JP" }?["new"] as? Bool == true, "Japan was never visited before 2025")
            #expect(countries.first { $0["code"] as? String == "DE" }?["new"] as? Bool == false, "Germany was visited in December 2024")
            #expect(countries.first { $0["code"] as? String == "JP" }?["days"] as? [String] == ["2025-03-05", "2025-03-06", "2025-03-07"])
            let home = try #require(review["home"] as? [String: Any])
            let homeCenter = try #require(Coordinate(validLatitude: home["latitude"] as! Double, longitude: home["longitude"] as! Double))
            #expect(homeCenter.distanceMeters(to: Self.berlin) < 100, "home is the Berlin stay of most nights")
            let away = try #require(review["daysAway"] as? [String: Any])
            #expect(away["days"] as? [String] == ["2025-03-06", "2025-03-07"], "the days no visit at home touched")
            // The furthest point: every stored fix of 2025 measured from home.
            let furthest = try #require(review["furthestFromHome"] as? [String: Any])
            let farthest = fixes.filter { $0.timestamp >= Self.at("2025-01-01T00:00:00Z") }
                .map { $0.coordinate.distanceMeters(to: homeCenter) }.max()!
            #expect(abs(furthest["distanceMeters"] as! Double - farthest) < 5, "\(furthest) against \(farthest) m")
            #expect(furthest["days"] as? [String] == ["2025-03-05"])
            // The walk: 3 km out; measured against the sum of its geodesic steps (the walk is
            // straight, the jitter-robust distance keeps all of it to within a few per cent).
            let walked = zip(out, out.dropFirst()).reduce(0) { $0 + $1.0.coordinate.distanceMeters(to: $1.1.coordinate) }
            let modes = try #require(review["distanceByMode"] as? [[String: Any]])
            let walking = try #require(modes.first { $0["mode"] as? String == "walking" })
            #expect(abs(walking["distanceMeters"] as! Double - walked) < 0.05 * walked, "\(walking) against \(walked) m")
            #expect(walking["days"] as? [String] == ["2025-03-03"])
            #expect((review["places"] as? [[String: Any]])?.isEmpty == false)
            // The busiest day: the day of the most metres between consecutive fixes (booked to the later one's day).
            var stepped: [String: Double] = [:]
            for (previous, next) in zip(fixes, fixes.dropFirst()) where Self.localDay(next).hasPrefix("2025-") {
                stepped[Self.localDay(next), default: 0] += previous.coordinate.distanceMeters(to: next.coordinate)
            }
            let busiest = try #require(stepped.max { $0.value < $1.value }?.key)
            #expect((review["busiestDay"] as? [String: Any])?["days"] as? [String] == [busiest], "\(stepped)")

            let march = try await Self.json(client, "/api/v1/review?period=2025-03&timezone=UTC")
            #expect((march["activeDays"] as? [String: Any])?["count"] as? Int == stored.count)
            let april = try await Self.json(client, "/api/v1/review?period=2025-04&timezone=UTC")
            #expect((april["activeDays"] as? [String: Any])?["count"] as? Int == 0)
            #expect(april["busiestDay"] == nil && (april["countries"] as? [Any])?.isEmpty == true)

            let (pngStatus, png, pngType) = try await Self.get(client, "/api/v1/review?period=2025&format=png&timezone=UTC")
            #expect(pngStatus == .ok && pngType == "image/png")
            #expect(Array(Data(png.readableBytesView).prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let (pdfStatus, pdf, pdfType) = try await Self.get(client, "/api/v1/review?period=2025-03&format=pdf")
            #expect(pdfStatus == .ok && pdfType == "application/pdf")
            try Self.checkPDF(Data(pdf.readableBytesView))

            for bad in ["", "25", "2025-13", "2025-7", "2025-07-01", "１９９９", "1969"] {
                let (status, body, _) = try await Self.get(client, "/api/v1/review?period=\(bad.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
                #expect(status == .badRequest, "period '\(bad)'")
                #expect(String(buffer: body).contains("expected a year (2025) or a month (2025-07)"), "\(String(buffer: body))")
            }
            let (missing, _, _) = try await Self.get(client, "/api/v1/review")
            #expect(missing == .badRequest)
            let (format, _, _) = try await Self.get(client, "/api/v1/review?period=2025&format=svg")
            #expect(format == .badRequest)
        }
    }

    /// A PDF's signature, its end, its one page and a cross-reference table whose offsets point at
    /// the objects it names; and, where Debian's poppler-utils is installed, what `pdfinfo` reads.
    /// The review as the route answers it, and as computed from every fix of the period (nothing kept).
    static func answers(_ client: some TestClientProtocol, _ fixture: ServerFixture, zone: String = "UTC") async throws
        -> (route: [String: Any], fresh: [String: Any]) {
        let route = try await json(client, "/api/v1/review?period=2025&timezone=\(zone)")
        let document = try await ReviewDocument.compute(store: fixture.app.store, userID: fixture.ada.id, period: ReviewPeriod(year: 2025),
                                                        timeZone: TimeZone(identifier: zone)!, placeTimeZones: fixture.app.placeTimeZones,
                                                        withLines: false, useKept: false)
        let fresh = try #require(try JSONSerialization.jsonObject(with: try document.json()) as? [String: Any])
        return (route, fresh)
    }

    /// The keys whose values differ between two answers, with both values.
    static func differing(_ a: [String: Any], _ b: [String: Any]) -> String {
        Set(a.keys).union(b.keys).sorted().filter { key in
            guard let left = a[key] as? NSObject else { return b[key] != nil }
            return !left.isEqual(b[key])
        }.map { "\($0): \(a[$0] ?? "none") against \(b[$0] ?? "none")" }.joined(separator: "; ")
    }

    /// Replaces a kept figure's payload under its own key: what the review then shows was read, not recomputed.
    static func tamper(_ kept: any FigureCacheStore, user: UserID, kind: String, slot: Int,
                       _ change: (inout Any) -> Void) async throws {
        let found = try #require(try await kept.cachedFigures(userID: user, kind: kind, slots: slot...slot)[slot], "\(kind) \(slot) kept")
        var payload = try JSONSerialization.jsonObject(with: found.payload)
        change(&payload)
        try await kept.storeCachedFigures(userID: user, kind: kind,
                                          [slot: CachedFigures(key: found.key, payload: try JSONSerialization.data(withJSONObject: payload))])
    }

    @Test("kept figures: a second review reads the days and weeks kept; a fix added, a fix deleted, a visit hidden, another zone recompute what they touch; every answer equals the review computed from all the fixes")
    func keptFigures() async throws {
        let fixture = try await ServerFixture.make()
        let store = fixture.app.store
        let kept = try #require(store as? any FigureCacheStore)
        _ = try await store.insert(Self.generatedHistory().map { StoredLocation(deviceID: fixture.adaPhone.id, location: $0, source: .api) })
        _ = try await fixture.app.journal.processor.process(device: fixture.adaPhone)
        let march3 = try #require(CivilDate(isoDate: "2025-03-03")).daysSince1970
        let year = try #require(CivilDate(isoDate: "2025-01-01")).daysSince1970...(try #require(CivilDate(isoDate: "2025-12-31")).daysSince1970)
        try await fixture.test { client in
            var (route, fresh) = try await Self.answers(client, fixture)
            #expect(NSDictionary(dictionary: route).isEqual(to: fresh), "first review: \(Self.differing(route, fresh))")
            #expect(route["furthestFromHome"] != nil && (route["distanceByMode"] as? [Any])?.isEmpty == false)
            #expect(try await kept.cachedFigures(userID: fixture.ada.id, kind: "review-day", slots: year).count == 365)

            // Read from what was kept: a changed payload under the same key shows.
            try await Self.tamper(kept, user: fixture.ada.id, kind: "review-day", slot: march3) { payload in
                var figure = payload as! [String: Any]
                figure["distanceMeters"] = 12_345_678.0
                payload = figure
            }
            route = try await Self.json(client, "/api/v1/review?period=2025&timezone=UTC")
            #expect((route["busiestDay"] as? [String: Any])?["distanceMeters"] as? Double == 12_345_678, "the kept day was read")

            // A fix added to that day: the day is read again.
            let evening = Location(coordinate: Self.berlin.destination(bearingDegrees: 0, distanceMeters: 40), horizontalAccuracyMeters: 5,
                                   timestamp: Self.at("2025-03-03T20:00:00Z"))
            _ = try await store.insert([StoredLocation(deviceID: fixture.adaPhone.id, location: evening, source: .api)])
            (route, fresh) = try await Self.answers(client, fixture)
            #expect(NSDictionary(dictionary: route).isEqual(to: fresh), "after a fix was added: \(Self.differing(route, fresh))")
            #expect((route["busiestDay"] as? [String: Any])?["distanceMeters"] as? Double != 12_345_678)

            // A fix deleted (a drop zone, retention): the same.
            try await Self.tamper(kept, user: fixture.ada.id, kind: "review-day", slot: march3) { payload in
                var figure = payload as! [String: Any]
                figure["distanceMeters"] = 12_345_678.0
                payload = figure
            }
            #expect(try await store.deleteLocations([StoredLocation(deviceID: fixture.adaPhone.id, location: evening, source: .api).key],
                                                    userID: fixture.ada.id) == 1)
            (route, fresh) = try await Self.answers(client, fixture)
            #expect(NSDictionary(dictionary: route).isEqual(to: fresh), "after a fix was deleted: \(Self.differing(route, fresh))")

            // The week of the walk: kept, read, and read again when a visit of it is hidden.
            let weeks = try await kept.cachedFigures(userID: fixture.ada.id, kind: "review-trips", slots: 0...Int(Int32.max))
            let walkWeek = try #require(weeks.first { (try? JSONSerialization.jsonObject(with: $0.value.payload) as? [Any])?.isEmpty == false }?.key)
            try await Self.tamper(kept, user: fixture.ada.id, kind: "review-trips", slot: walkWeek) { payload in
                payload = (payload as! [[String: Any]]).map { trip in
                    var trip = trip
                    trip["distanceMeters"] = 999_999.0
                    return trip
                }
            }
            route = try await Self.json(client, "/api/v1/review?period=2025&timezone=UTC")
            #expect((route["longestTrip"] as? [String: Any])?["distanceMeters"] as? Double == 999_999, "the kept week was read")
            let visits = try await store.visits(userID: fixture.ada.id, deviceIDs: nil, from: Self.at("2025-03-03T11:00:00Z"),
                                                to: Self.at("2025-03-03T14:00:00Z"), includeHidden: false)
            let atPark = try #require(visits.first { $0.visit.center.distanceMeters(to: Self.berlin) > 2_000 })
            _ = try await store.editVisit(id: atPark.id, VisitEdit(hidden: true))
            (route, fresh) = try await Self.answers(client, fixture)
            #expect(NSDictionary(dictionary: route).isEqual(to: fresh), "after a visit was hidden: \(Self.differing(route, fresh))")
            #expect((route["longestTrip"] as? [String: Any])?["distanceMeters"] as? Double != 999_999)

            // Another zone makes other local days: nothing kept for UTC is read for Tokyo.
            (route, fresh) = try await Self.answers(client, fixture, zone: "Asia/Tokyo")
            #expect(NSDictionary(dictionary: route).isEqual(to: fresh), "in Asia/Tokyo: \(Self.differing(route, fresh))")
            (route, fresh) = try await Self.answers(client, fixture)
            #expect(NSDictionary(dictionary: route).isEqual(to: fresh), "in UTC again: \(Self.differing(route, fresh))")

            // The image's lines: kept per day (the second computation reads them), the same as read from the fixes.
            var lines: [PeriodReviewBuilder.Lines] = []
            for useKept in [true, true, false] {
                lines.append(try await ReviewDocument.compute(store: store, userID: fixture.ada.id, period: ReviewPeriod(year: 2025),
                                                              timeZone: Self.utc, placeTimeZones: fixture.app.placeTimeZones,
                                                              withLines: true, useKept: useKept).lines)
            }
            #expect(try await kept.cachedFigures(userID: fixture.ada.id, kind: "review-lines", slots: year).count == 365)
            #expect(lines[0].pointCount > 50 && lines.map(\.pointCount) == Array(repeating: lines[0].pointCount, count: 3))
            #expect(lines[1].byDevice == lines[2].byDevice && lines[0].byDevice == lines[2].byDevice)
        }
    }

    @Test("the review keeper computes each user's current year (and last year's in January) in the zone they last asked a review in; the route then reads what it kept")
    func keeper() async throws {
        let fixture = try await ServerFixture.make()
        let store = fixture.app.store
        let kept = try #require(store as? any FigureCacheStore)
        _ = try await store.insert(Self.generatedHistory().map { StoredLocation(deviceID: fixture.adaPhone.id, location: $0, source: .api) })
        let keeper = fixture.app.reviewKeeper
        keeper.noteRequest(userID: fixture.ada.id, timeZone: TimeZone(identifier: "Asia/Tokyo")!)
        let june = try await keeper.keep(now: Self.at("2025-06-01T12:00:00Z")).filter { $0.userID == fixture.ada.id }.map(\.period.description)
        #expect(june == ["2025"])
        let january = try await keeper.keep(now: Self.at("2026-01-10T12:00:00Z")).filter { $0.userID == fixture.ada.id }.map(\.period.description)
        #expect(january == ["2026", "2025"])
        let march3 = try #require(CivilDate(isoDate: "2025-03-03")).daysSince1970
        #expect(try await kept.cachedFigures(userID: fixture.ada.id, kind: "review-lines", slots: march3...march3).count == 1, "lines kept too")
        try await Self.tamper(kept, user: fixture.ada.id, kind: "review-day", slot: march3) { payload in
            var figure = payload as! [String: Any]
            figure["distanceMeters"] = 12_345_678.0
            payload = figure
        }
        try await fixture.test { client in
            let review = try await Self.json(client, "/api/v1/review?period=2025&timezone=Asia/Tokyo")
            #expect((review["busiestDay"] as? [String: Any])?["distanceMeters"] as? Double == 12_345_678, "read from what the keeper kept")
        }
    }

    static func checkPDF(_ data: Data) throws {
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("%PDF-1."))
        #expect(text.hasSuffix("%%EOF\n") || text.hasSuffix("%%EOF"))
        let start = try #require(text.range(of: "startxref\n", options: .backwards))
        let offset = try #require(Int(text[start.upperBound...].prefix { $0.isNumber }))
        let bytes = [UInt8](data)
        #expect(String(decoding: bytes[offset..<min(bytes.count, offset + 4)], as: UTF8.self) == "xref")
        let table = String(decoding: bytes[offset...], as: UTF8.self).split(separator: "\n")
        // "xref", "0 N", then N entries "OOOOOOOOOO GGGGG n".
        let count = try #require(Int(table[1].split(separator: " ")[1]))
        for (number, entry) in table[2..<(2 + count)].enumerated() where entry.hasSuffix("n") || entry.hasSuffix("n ") {
            let at = try #require(Int(entry.prefix(10)))
            #expect(String(decoding: bytes[at..<at + 12], as: UTF8.self).hasPrefix("\(number) 0 obj"), "object \(number) at \(at)")
        }
        let pdfinfo = "/usr/bin/pdfinfo"
        guard FileManager.default.isExecutableFile(atPath: pdfinfo) else { return }
        let file = TestDirectory.url.appendingPathComponent("review-\(UUID().uuidString).pdf")
        try data.write(to: file)
        let result = try ChildProcess.run(pdfinfo, [file.path])
        let output = result.outputText + result.errorText
        #expect(result.status == 0, "\(output)")
        #expect(output.contains("Pages:           1"), "\(output)")
        #expect(output.contains("Creator:         Travelog"), "\(output)")
    }
}

/// The review of the real files of ../shared/fixtures imported together.
@Suite("A year in review on the real files", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct SharedReviewTests {
    @Test("each figure of the busiest year and its busiest month agrees with the journal's entries, trips and statistics counted another way; the year's review message carries the review's own figures, once")
    func realYear() async throws {
        let fixture = try await ServerFixture.make()
        let devices = try await CorpusTests.importRealFiles(fixture)
        for device in devices { _ = try await fixture.app.journal.processor.process(device: device) }
        let store = fixture.app.store
        let all = try await store.locations(LocationQuery(userID: fixture.ada.id))
        // The year and the month with the most fixes (UTC).
        let years = Dictionary(grouping: all) { CivilDate(secondsSince1970: $0.location.timestamp.timeIntervalSince1970, utcOffsetSeconds: 0) }
        let byYear = Dictionary(grouping: years.keys) { $0.year }.mapValues { $0.reduce(0) { $0 + years[$1]!.count } }
        let year = try #require(byYear.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key)
        let byMonth = Dictionary(grouping: years.keys.filter { $0.year == year }) { $0.month }.mapValues { $0.reduce(0) { $0 + years[$1]!.count } }
        let month = try #require(byMonth.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key)
        _ = try await store.addChannel(userID: fixture.ada.id, kind: .webhook(url: URL(string: "https://hooks.example.org/travelog")!, secret: "s3cret-s3cret"))
        try await fixture.test { client in
            let checked = [String(year), String(format: "%04d-%02d", year, month)]
            for period in checked + byYear.keys.sorted().map(String.init).filter({ !checked.contains($0) }) {
                if checked.contains(period) {
                    try await check(client, period: try ReviewPeriod(parsing: period), all: all.map(\.location))
                } else {
                    _ = try await ReviewTests.json(client, "/api/v1/review?period=\(period)&timezone=UTC")
                }
                // Every year's review (the first of it filled the kept days and weeks above, or here),
                // read again from the kept days and weeks: the same as computed from every fix.
                let route = try await ReviewTests.json(client, "/api/v1/review?period=\(period)&timezone=UTC")
                let fresh = try await ReviewDocument.compute(store: store, userID: fixture.ada.id, period: try ReviewPeriod(parsing: period),
                                                             timeZone: ReviewTests.utc, placeTimeZones: fixture.app.placeTimeZones,
                                                             withLines: false, useKept: false).json()
                let freshObject = try #require(try JSONSerialization.jsonObject(with: fresh) as? [String: Any])
                #expect(NSDictionary(dictionary: route).isEqual(to: freshObject), "\(period), kept against fresh: \(ReviewTests.differing(route, freshObject))")
            }
            // `serve --review-messages yearly` on the second day of the next year: that year's message on
            // ada's channel, once, with the figures of the review itself.
            let review = try await ReviewTests.json(client, "/api/v1/review?period=\(year)&timezone=UTC")
            var messages = ReviewMessages(store: store, notifications: fixture.app.notifications, placeTimeZones: fixture.app.placeTimeZones,
                                          cadence: .yearly, timeZone: ReviewTests.utc, logger: Logger(label: "review-real-test"))
            messages.now = { ISO8601DateFormatter().date(from: String(format: "%04d-01-02T09:00:00Z", year + 1))! }
            let told = try await messages.check()
            #expect(told.map(\.message.key) == ["review:\(year)"])
            let message = try #require(told.first?.message)
            #expect(message.details["distanceMeters"] == String(Int((review["distanceMeters"] as! Double).rounded())))
            #expect(message.details["activeDays"] == String(((review["activeDays"] as? [String: Any])?["days"] as? [String])?.count ?? -1))
            #expect(message.details["countries"] == (review["countries"] as? [[String: Any]] ?? []).map { "\($0["code"]!)" }.joined(separator: ","))
            #expect(message.message.hasPrefix("Distance: ") && message.message.split(separator: "\n").count <= 6, "\(message.message)")
            #expect(try await messages.check().isEmpty, "sent once")
        }
    }

    func check(_ client: some TestClientProtocol, period: ReviewPeriod, all: [Location]) async throws {
        let review = try await ReviewTests.json(client, "/api/v1/review?period=\(period)&timezone=UTC")
        let first = period.days.first.description, last = period.days.end.adding(days: -1).description
        let range = "from=\(first)&to=\(last)&timezone=UTC"
        // Countries and their days: each entry's local days (its own local arrival and departure
        // dates, walked one by one), inside the period.
        let entries = try #require(try await CorpusTests.get(client, "/api/v1/visits?\(range)") as? [[String: Any]])
        var expected: [String: Set<String>] = [:]
        for entry in entries {
            guard let code = entry["countryCode"] as? String, let arrival = entry["localArrival"] as? String else { continue }
            var day = try #require(CivilDate(isoDate: arrival.prefix(10)))
            let end = try #require(CivilDate(isoDate: ((entry["localDeparture"] as? String) ?? arrival).prefix(10)))
            while day <= end {
                if period.contains(day: day.description) { expected[code, default: []].insert(day.description) }
                day = day.adding(days: 1)
            }
        }
        let countries = try #require(review["countries"] as? [[String: Any]])
        #expect(Dictionary(uniqueKeysWithValues: countries.map { ("\($0["code"]!)", Set($0["days"] as! [String])) }) == expected.filter { !$0.value.isEmpty },
                "\(period)")
        // New: no entry before the period in that country.
        let before = try #require(try await CorpusTests.get(client, "/api/v1/visits?to=\(period.days.first.adding(days: -1))&timezone=UTC") as? [[String: Any]])
        let seen = Set(before.compactMap { $0["countryCode"] as? String })
        for country in countries { #expect(country["new"] as? Bool == !seen.contains(country["code"] as! String), "\(period) \(country)") }
        // Trips: by mode as the trips of the period add up, the longest the longest of them.
        let trips = try #require(try await CorpusTests.get(client, "/api/v1/trips?\(range)") as? [[String: Any]])
        var byMode: [String: Double] = [:]
        for trip in trips { byMode[trip["mode"] as! String, default: 0] += trip["distanceMeters"] as! Double }
        let modes = try #require(review["distanceByMode"] as? [[String: Any]])
        for mode in modes {
            let wanted = byMode[mode["mode"] as! String] ?? -1
            #expect(abs(mode["distanceMeters"] as! Double - wanted) <= 0.1 + 1e-9 * wanted, "\(period) \(mode) against \(wanted)")
        }
        #expect(Set(modes.map { $0["mode"] as! String }) == Set(byMode.keys), "\(period)")
        if let longest = trips.map({ $0["distanceMeters"] as! Double }).max() {
            #expect((review["longestTrip"] as? [String: Any])?["distanceMeters"] as? Double == longest, "\(period)")
        }
        // The busiest day is the day of most distance in the statistics; the total is theirs.
        let stats = try #require(try await CorpusTests.get(client, "/api/v1/stats?by=day&\(range)") as? [String: Any])
        // The local days of the period (a fix of the range may fall on a local day beside it).
        let days = try #require(stats["periods"] as? [[String: Any]]).filter { period.contains(day: $0["period"] as! String) }
        let busiest = try #require(days.max { ($0["distanceMeters"] as! Double) < ($1["distanceMeters"] as! Double) })
        #expect((review["busiestDay"] as? [String: Any])?["days"] as? [String] == [busiest["period"] as! String], "\(period)")
        let total = days.reduce(0) { $0 + ($1["distanceMeters"] as! Double) }
        #expect(abs(review["distanceMeters"] as! Double - total) < 1, "\(period): \(review["distanceMeters"]!) against \(total)")
        #expect((review["activeDays"] as? [String: Any])?["days"] as? [String] == days.map { $0["period"] as! String }, "\(period)")
        // The furthest point from home: every fix of the period measured from home.
        if let home = review["home"] as? [String: Any], let furthest = review["furthestFromHome"] as? [String: Any] {
            let center = try #require(Coordinate(validLatitude: home["latitude"] as! Double, longitude: home["longitude"] as! Double))
            // The period's local days (in the zone of each place) reach up to a day beyond its UTC range.
            let (from, to) = period.range(in: ReviewTests.utc)
            let farthest = { (from: Date, to: Date) in
                all.filter { $0.timestamp >= from && $0.timestamp < to }.map { $0.coordinate.distanceMeters(to: center) }.max() ?? 0
            }
            let outer = farthest(from.addingTimeInterval(-86_400), to.addingTimeInterval(86_400))
            let inner = farthest(from.addingTimeInterval(86_400), to.addingTimeInterval(-86_400))
            // The haversine fast path picks the fix: it may miss the farthest by its 0.56 %.
            let found = furthest["distanceMeters"] as! Double
            #expect(found <= outer + 0.1 && found >= inner * (1 - 0.0056), "\(period): \(found) against \(inner)...\(outer) m")
        }
    }
}
