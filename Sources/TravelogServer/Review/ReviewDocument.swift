import Foundation
import TravelogCore
import TravelogImport
import TravelogJournal
import TravelogRender
import TravelogStore

/// A year or a month in review, computed and drawn: what `travelog review` writes and
/// `GET /api/v1/review` answers (one computation, ``PeriodReviewBuilder``; one drawing, ``ReviewImage``).
public struct ReviewDocument: Sendable {
    /// JSON, or the image as PNG or PDF.
    public enum Format: String, CaseIterable, Sendable {
        case json, png, pdf

        /// The format a file's extension names (`review.png`, `review.pdf`), `nil` for another.
        public init?(fileName: String) {
            switch URL(fileURLWithPath: fileName).pathExtension.lowercased() {
            case "png": self = .png
            case "pdf": self = .pdf
            case "json": self = .json
            default: return nil
            }
        }

        public var contentType: String {
            switch self {
            case .json: "application/json; charset=utf-8"
            case .png: "image/png"
            case .pdf: "application/pdf"
            }
        }
    }

    public let review: PeriodReview
    public let lines: PeriodReviewBuilder.Lines
    public let devices: [Device]

    /// Computes the review of a user's period (the lines too when an image will be drawn).
    /// - Parameters:
    ///   - placeTimeZones: the place's zone at a fix (the statistics' days).
    ///   - useKept: read and keep the days' and weeks' figures in the store (`PeriodReviewBuilder`);
    ///     `false` reads every fix of the period.
    public static func compute(store: any TravelogStore, userID: UserID, period: ReviewPeriod, timeZone: TimeZone,
                               placeTimeZones: PlaceTimeZones?, withLines: Bool, useKept: Bool = true) async throws -> ReviewDocument {
        let builder = builder(store: store, timeZone: timeZone, placeTimeZones: placeTimeZones)
        let (review, lines) = try await builder.review(userID: userID, period: period, lines: withLines, useKept: useKept)
        return ReviewDocument(review: review, lines: lines, devices: try await store.devices(userID: userID))
    }

    /// The review's computation for a person's zone and the place zones (the statistics' days).
    static func builder(store: any TravelogStore, timeZone: TimeZone, placeTimeZones: PlaceTimeZones?) -> PeriodReviewBuilder {
        var placeOffset: (@Sendable (Location) -> Int?)?
        if let placeTimeZones { placeOffset = { placeTimeZones.offsetSeconds(for: $0) } }
        return PeriodReviewBuilder(reader: JournalReader(store: store, timeZones: placeTimeZones), photos: store as? any PhotoStore,
                                   timeZone: timeZone,
                                   utcOffset: HistoryStatistics.localOffset(placeOffsetSeconds: placeOffset, timeZone: timeZone),
                                   offsetIdentity: "\(timeZone.identifier)|places:\(placeTimeZones?.identity ?? "none")")
    }

    /// The review as JSON (sorted keys).
    public func json(pretty: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(review)
    }

    /// The image: the period's lines on the offline world base, home and the furthest point marked,
    /// the figures beside it.
    public func image(_ format: Format, units: HistoryStatistics.UnitSystem, outlines: WorldOutlines?) throws -> Data {
        var markers: [ReviewImage.Marker] = []
        if let home = review.home, let point = Coordinate(validLatitude: home.latitude, longitude: home.longitude) {
            markers.append(ReviewImage.Marker(coordinate: point, label: "Home"))
        }
        if let far = review.furthestFromHome, let point = Coordinate(validLatitude: far.latitude, longitude: far.longitude) {
            markers.append(ReviewImage.Marker(coordinate: point, label: "Furthest"))
        }
        let image = ReviewImage(
            title: "\(review.period) in review", subtitle: "\(review.firstDay) to \(review.lastDay)",
            figures: review.figures(units: units).map { ReviewImage.Figure(label: $0.label, value: $0.value) },
            lines: ReviewImage.lines(lines.byDevice, devices: devices), markers: markers, outlines: outlines)
        switch format {
        case .png: return try image.pngData()
        case .pdf: return try image.pdfData()
        case .json: return try json()
        }
    }
}
