import Foundation
import Hummingbird
import TravelogImport
import TravelogJournal
import TravelogRender
import TravelogStore

/// `GET /api/v1/review?period=2025|2025-07[&format=json|png|pdf][&units=metric|imperial][&timezone=ZONE]`:
/// a year or a month in review (issue 33), the figures as JSON with the days behind each, or the image.
struct ReviewRoutes {
    let store: any TravelogStore
    let journal: JournalService
    let placeTimeZones: PlaceTimeZones?
    let worldOutlines: WorldOutlines?
    /// Told the zone each review is asked in: the one its figures are kept current for.
    var keeper: ReviewKeeper?

    func add(to router: RouteRegistry) {
        router.get("/api/v1/review") { request, context in
            let identity = try context.requireIdentity()
            guard let text = request.query("period") else {
                throw APIError.badRequest("period is required: a year (2025) or a month (2025-07)")
            }
            let period: ReviewPeriod
            do { period = try ReviewPeriod(parsing: text) } catch { throw APIError.badRequest("\(error)") }
            let format = ReviewDocument.Format(rawValue: try request.choiceQuery("format", ReviewDocument.Format.allCases.map(\.rawValue),
                                                                               default: "json"))!
            let units = HistoryStatistics.UnitSystem(rawValue: try request.choiceQuery("units", ["metric", "imperial"], default: "metric"))!
            let parameters = try await ReadParameters(request, identity: identity, store: store)
            await journal.drain()
            keeper?.noteRequest(userID: identity.user.id, timeZone: parameters.timeZone)
            let document = try await ReviewDocument.compute(store: store, userID: identity.user.id, period: period,
                                                            timeZone: parameters.timeZone, placeTimeZones: placeTimeZones,
                                                            withLines: format != .json)
            let data = format == .json ? try document.json() : try document.image(format, units: units, outlines: worldOutlines)
            var headers = HTTPFields()
            if format != .json {
                headers[.contentDisposition] = "inline; filename=\"travelog-review-\(period).\(format.rawValue)\""
            }
            return Response.bytes(data, contentType: format.contentType, extraHeaders: headers)
        }
    }
}
