import Foundation
import Testing
import TravelogCore
import TravelogFormats

@Suite("GoogleTimelineReader and GoogleTimelineIOSReader: on-device Timeline exports")
struct GoogleTimelineReaderTests {
    static let android = """
    {
      "semanticSegments": [{
        "startTime": "2017-05-02T17:40:00+10:00", "endTime": "2017-05-02T19:40:00+10:00",
        "timelinePath": [
          {"point": "-27.4128830°, 163.5642178°", "time": "2017-05-02T18:52:00+10:00"},
          {"point": "-27.4150187°, 163.5598018°", "time": "2017-05-02T18:54:00+10:00"}
        ]
      }, {
        "startTime": "2017-05-02T12:12:04+10:00", "endTime": "2017-05-02T18:52:12+10:00",
        "startTimeTimezoneUtcOffsetMinutes": 600, "endTimeTimezoneUtcOffsetMinutes": 600,
        "visit": {"hierarchyLevel": 0, "probability": 0.94,
                  "topCandidate": {"placeId": "ChIJ7czCIfZYkWsRpWBJ8NUZOIs", "semanticType": "UNKNOWN", "probability": 0.3,
                                   "placeLocation": {"latLng": "-27.4130260°, 163.5643862°"}}}
      }, {
        "startTime": "2017-05-02T18:52:12+10:00", "endTime": "2017-05-02T19:16:01+10:00",
        "activity": {"start": {"latLng": "-27.4131130°, 163.5643022°"}, "end": {"latLng": "-27.3454282°, 163.6034986°"},
                     "distanceMeters": 8856.0, "topCandidate": {"type": "CYCLING", "probability": 0.0}}
      }, {
        "startTime": "2017-05-03T08:00:00+10:00", "endTime": "2017-05-03T09:00:00+10:00",
        "timelineMemory": {"trip": {"distanceFromOriginKms": 12}}
      }],
      "rawSignals": [
        {"position": {"LatLng": "-27.4129293°, 163.5639147°", "accuracyMeters": 11, "altitudeMeters": 46.7,
                      "source": "WIFI", "timestamp": "2025-07-19T06:31:35+10:00", "speedMetersPerSecond": 0.5}},
        {"wifiScan": {"deliveryTime": "2025-07-19T06:31:40+10:00", "devicesRecords": [{"mac": 1, "rawRssi": -50}]}},
        {"activityRecord": {"probableActivities": [{"type": "STILL", "confidence": 1}]}},
        {"position": {"LatLng": "-27.4129006°, 163.5638582°", "accuracyMeters": 16, "timestamp": "2025-07-19T06:31:50+10:00"}}
      ],
      "userLocationProfile": {"frequentPlaces": [{"placeId": "x", "placeLocation": "-27.1°, 163.1°"}]}
    }
    """

    static let iOS = """
    [
      {"endTime": "2023-08-27T17:04:26.999-05:00", "startTime": "2023-08-27T15:48:56.000-05:00",
       "visit": {"hierarchyLevel": "0", "topCandidate": {"probability": "0.785181", "semanticType": "Unknown",
                 "placeID": "ChIJxxP_Qwb2aIYRTwDNDLkUmD0", "placeLocation": "geo:27.720022,-97.347951"}, "probability": "0.710000"}},
      {"endTime": "2023-08-28T00:00:00.000Z", "startTime": "2023-08-27T22:00:00.000Z",
       "timelinePath": [{"point": "geo:27.701123,-97.362988", "durationMinutesOffsetFromStartTime": "4"},
                        {"point": "geo:27.696576,-97.376949", "durationMinutesOffsetFromStartTime": "109"}]},
      {"endTime": "2023-09-02T23:25:59.000-06:00", "startTime": "2023-08-27T14:48:56.000-06:00",
       "timelineMemory": {"destinations": [{"identifier": "ChIJs9KSYYBfaIYRj5AOiZNQ0a4"}], "distanceFromOriginKms": "1594"}},
      {"endTime": "2023-08-27T16:00:00.000-05:00", "startTime": "2023-08-27T15:00:00.000-05:00",
       "activity": {"start": "geo:27.720022,-97.347951", "end": "geo:27.701123,-97.362988", "distanceMeters": "2000.5",
                    "topCandidate": {"type": "in passenger vehicle", "probability": "0.9"}}}
    ]
    """

    @Test("Android: paths, visits and activity ends become tracks and visits; raw positions one more track")
    func android() throws {
        let records = try GoogleReading.records(Self.android, as: .googleTimeline)
        #expect(records.count == 7)
        #expect(records.allSatisfy { $0.rejection == nil })
        let path = records[0...1].compactMap(\.point)
        #expect(path.map(\.kind) == [.track(track: 0, segment: 0), .track(track: 0, segment: 0)])
        let first = try #require(path.first?.position.location)
        #expect(first.coordinate == Coordinate(validLatitude: -27.4128830, longitude: 163.5642178))
        #expect(first.timestamp == GoogleReading.date("2017-05-02T08:52:00Z"))
        #expect(first.utcOffsetSeconds == 36_000)

        let visit = try #require(records[2].visit)
        #expect(visit.coordinate == Coordinate(validLatitude: -27.4130260, longitude: 163.5643862))
        #expect(visit.placeIdentifier == "ChIJ7czCIfZYkWsRpWBJ8NUZOIs")
        #expect(visit.arrival == GoogleReading.date("2017-05-02T02:12:04Z"))
        #expect(visit.departure == GoogleReading.date("2017-05-02T08:52:12Z"))

        let activity = records[3...4].compactMap(\.point)
        #expect(activity.map(\.kind) == [.track(track: 1, segment: 0), .track(track: 1, segment: 0)])
        #expect(activity[0].position.location?.timestamp == GoogleReading.date("2017-05-02T08:52:12Z"))
        #expect(activity[1].position.location?.timestamp == GoogleReading.date("2017-05-02T09:16:01Z"))
        #expect(activity[1].position.coordinate == Coordinate(validLatitude: -27.3454282, longitude: 163.6034986))

        let raw = records[5...6].compactMap(\.point)
        #expect(raw.map(\.kind) == [.track(track: 2, segment: 0), .track(track: 2, segment: 0)])
        let signal = try #require(raw.first?.position.location)
        #expect(signal.horizontalAccuracyMeters == 11)
        #expect(signal.altitudeMeters == 46.7)
        #expect(signal.speedMetersPerSecond == 0.5)
        #expect(signal.timestamp == GoogleReading.date("2025-07-18T20:31:35Z"))
        #expect(raw[1].position.location?.altitudeMeters == nil)
    }

    @Test("a visit nested in another (hierarchyLevel above 0: a shop in a mall, at the same time) is not a second stay (issue 26)",
          arguments: ["1", "\"1\""])
    func nestedVisit(level: String) throws {
        let text = """
        {"semanticSegments": [{
          "startTime": "2017-05-04T00:05:33+10:00", "endTime": "2017-05-04T00:17:23+10:00",
          "visit": {"hierarchyLevel": 0, "topCandidate": {"placeId": "mall", "placeLocation": {"latLng": "-27.4667720°, 163.5494722°"}}}
        }, {
          "startTime": "2017-05-04T00:08:21+10:00", "endTime": "2017-05-04T00:17:23+10:00",
          "visit": {"hierarchyLevel": \(level), "topCandidate": {"placeId": "shop", "placeLocation": {"latLng": "-27.4667475°, 163.5486024°"}}}
        }]}
        """
        let visits = try GoogleReading.records(text, as: .googleTimeline).compactMap(\.visit)
        #expect(visits.map(\.placeIdentifier) == ["mall"])
    }

    @Test("iOS: geo: coordinates, numbers as strings, path times as minutes after the segment's start")
    func iOS() throws {
        let records = try GoogleReading.records(Self.iOS, as: .googleTimelineIOS)
        #expect(records.count == 5)
        let visit = try #require(records[0].visit)
        #expect(visit.coordinate == Coordinate(validLatitude: 27.720022, longitude: -97.347951))
        #expect(visit.placeIdentifier == "ChIJxxP_Qwb2aIYRTwDNDLkUmD0")
        #expect(visit.arrival == GoogleReading.date("2023-08-27T20:48:56Z"))
        #expect(visit.departure == GoogleReading.date("2023-08-27T22:04:26.999Z"))
        let path = records[1...2].compactMap(\.location)
        #expect(path.map(\.timestamp) == [Date(timeIntervalSince1970: 1_693_173_840), Date(timeIntervalSince1970: 1_693_180_140)])
        #expect(path[1].coordinate == Coordinate(validLatitude: 27.696576, longitude: -97.376949))
        #expect(path[1].utcOffsetSeconds == nil)  // written with Z
        let activity = records[3...4].compactMap(\.location)
        #expect(activity.map(\.utcOffsetSeconds) == [-18_000, -18_000])
        #expect(activity[1].timestamp == GoogleReading.date("2023-08-27T21:00:00Z"))
        #expect(records[3].point?.kind == .track(track: 1, segment: 0))
    }

    @Test("wrong segments are rejected at their position", arguments: [
        (#"[{"startTime": "2023-08-27T15:48:56Z", "visit": {"topCandidate": {"placeLocation": "geo:97.1,10"}}}]"#,
         RecordRejection.Reason.invalidCoordinate(.latitudeOutOfRange(97.1))),
        (#"[{"startTime": "2023-08-27T15:48:56Z", "visit": {"topCandidate": {"placeLocation": "somewhere"}}}]"#,
         .invalidValue(field: "placeLocation", value: "not a number")),
        (#"[{"visit": {"topCandidate": {"placeLocation": "geo:1,2"}}}]"#, .missingField("startTime")),
        (#"[{"startTime": "2023-02-29T15:48:56Z", "visit": {"topCandidate": {"placeLocation": "geo:1,2"}}}]"#,
         .invalidTime("2023-02-29T15:48:56Z")),
        (#"[{"startTime": "2023-08-27T15:48:56Z", "timelinePath": [{"point": "geo:1,2", "durationMinutesOffsetFromStartTime": "soon"}]}]"#,
         .invalidTime("nan minutes after startTime")),
        (#"[{"startTime": "2023-08-27T15:48:56Z", "timelinePath": [{"durationMinutesOffsetFromStartTime": "1"}]}]"#,
         .missingField("point")),
        (#"[7]"#, .invalidValue(field: "semanticSegments[]", value: "a number")),
    ])
    func rejections(text: String, reason: RecordRejection.Reason) throws {
        let records = try GoogleReading.records(text, as: .googleTimelineIOS)
        #expect(records.map { $0.rejection?.reason } == [reason])
        #expect(records.first?.rejection?.position.line == 1)
    }

    @Test("a truncated Timeline throws at its end", arguments: [FileFormat.googleTimeline, .googleTimelineIOS])
    func truncated(format: FileFormat) {
        let sample = format == .googleTimeline ? Self.android : Self.iOS
        let text = String(sample.prefix(sample.utf8.count / 2))
        let (_, error) = GoogleReading.recordsUntilFailure(text, as: format)
        guard case .truncated(let position, _)? = error else {
            Issue.record("expected .truncated, got \(String(describing: error))")
            return
        }
        #expect(position.byteOffset == text.utf8.count)
    }

    @Test("reading in chunks of any size gives the same records", arguments: [1, 5, 64])
    func chunked(size: Int) throws {
        #expect(try GoogleReading.records(Self.android, as: .googleTimeline, chunkBytes: size)
                == GoogleReading.records(Self.android, as: .googleTimeline))
        #expect(try GoogleReading.records(Self.iOS, as: .googleTimelineIOS, chunkBytes: size)
                == GoogleReading.records(Self.iOS, as: .googleTimelineIOS))
    }
}
