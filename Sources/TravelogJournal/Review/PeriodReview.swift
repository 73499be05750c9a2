import Foundation
import TravelogCore

/// A year or a month looked back at (`travelog review`, `GET /api/v1/review`): each figure with
/// the local days (`YYYY-MM-DD`) behind it, so the page can link each one to its days.
public struct PeriodReview: Encodable, Hashable, Sendable {
    /// The distance of the trips of one transport mode.
    public struct ModeDistance: Encodable, Hashable, Sendable {
        public var mode: String
        public var distanceMeters: Double
        public var trips: Int
        public var days: [String]
    }

    /// A country with the local days spent there; `new` when no day before the period was.
    public struct Country: Encodable, Hashable, Sendable {
        public var code: String
        public var new: Bool
        public var days: [String]
    }

    /// A city (the gazetteer's place of the journal's visits); `new` when never visited before.
    public struct City: Encodable, Hashable, Sendable {
        public var name: String
        public var countryCode: String
        public var visits: Int
        public var new: Bool
        public var days: [String]
    }

    /// A place of the journal and how often it was visited in the period.
    public struct Place: Encodable, Hashable, Sendable {
        public var name: String
        public var visits: Int
        public var latitude: Double
        public var longitude: Double
        public var days: [String]
    }

    /// Where most nights were spent (the journal place that held the person at 03:00 local on
    /// most days of the year up to the period's end).
    public struct Home: Encodable, Hashable, Sendable {
        public var name: String
        public var latitude: Double
        public var longitude: Double
        public var nights: Int
    }

    public struct Trip: Encodable, Hashable, Sendable {
        public var distanceMeters: Double
        public var durationSeconds: Double
        public var mode: String
        public var start: String
        public var end: String
        public var days: [String]
    }

    public struct Point: Encodable, Hashable, Sendable {
        public var latitude: Double
        public var longitude: Double
        /// Geodesic distance from home, metres.
        public var distanceMeters: Double
        public var time: String
        public var days: [String]
    }

    public struct Day: Encodable, Hashable, Sendable {
        public var distanceMeters: Double
        public var locations: Int
        public var days: [String]
    }

    public struct Count: Encodable, Hashable, Sendable {
        public var count: Int
        public var days: [String]
    }

    /// `2025` or `2025-07`.
    public var period: String
    /// The period's first local day and its last.
    public var firstDay: String
    public var lastDay: String
    /// The fused track's distance (the statistics' figure), metres, and the days with fixes.
    public var distanceMeters: Double
    public var locations: Int
    public var activeDays: Count
    /// Distance of the journal's trips per transport mode, longest first.
    public var distanceByMode: [ModeDistance]
    public var countries: [Country]
    public var cities: [City]
    public var home: Home?
    /// Days with fixes that no visit at home touched.
    public var daysAway: Count?
    public var longestTrip: Trip?
    /// The most visited places, at most ``PeriodReviewBuilder/placeCount``.
    public var places: [Place]
    public var furthestFromHome: Point?
    /// The day with the longest distance.
    public var busiestDay: Day?
    /// Photos taken in the period, when there are any.
    public var photos: Count?
}
