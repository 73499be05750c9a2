import Foundation
import HTTPTypes
import Hummingbird
import TravelogAccounts
import TravelogStore

/// `/api/v1/account/retention`: how long the person keeps their history (Settings → Retention).
/// Only the person (the page's session or the password) reads or changes it: a device token, read
/// or write, is refused by `requirePerson`, and share links never reach `/api/v1/account`.
///
/// - `GET`: the period that applies, where it comes from, the server's default and the last run;
/// - `PUT` `{"period": "365d" | "off" | "default", "journal": "keep" | "delete"}`: sets it
///   (`default`: the server's from now on);
/// - `GET …/preview`: what a run would delete now (fixes per device, journal entries);
/// - `POST …/run`: deletes it now (409 when retention is off, or a run goes on); the map index is rebuilt.
struct RetentionRoutes {
    let retention: HistoryRetention
    let tiles: HistoryTiles

    struct SettingForm: Decodable {
        var period: String
        var journal: RetentionSetting.Journal?
    }

    func add(to router: RouteRegistry) {
        router.get("/api/v1/account/retention") { _, context in
            let user = try context.requirePerson().user
            return try Response.json(try await RetentionJSON.read(retention, userID: user.id))
        }
        router.on("/api/v1/account/retention", method: .put) { request, context in
            let user = try context.requirePerson().user
            let form: SettingForm = try await request.decodeJSON(context: context)
            let setting: RetentionSetting?
            if RetentionSetting.isServerDefault(form.period) {
                guard form.journal == nil else { throw APIError.badRequest("'journal' goes with a period, not with 'default'") }
                setting = nil
            } else {
                do throws(RetentionPeriodError) {
                    setting = try RetentionSetting(days: try RetentionSetting.days(from: form.period), journal: form.journal ?? .keep)
                } catch {
                    throw APIError.badRequest(error.description)
                }
            }
            try await retention.store.setRetentionSetting(setting, userID: user.id, at: Date())
            return try Response.json(try await RetentionJSON.read(retention, userID: user.id))
        }
        router.get("/api/v1/account/retention/preview") { _, context in
            let user = try context.requirePerson().user
            return try Response.json(RetentionPreviewJSON(try await retention.preview(userID: user.id)))
        }
        router.post("/api/v1/account/retention/run") { _, context in
            let user = try context.requirePerson().user
            let done: RetentionRun?
            do throws(RetentionRunError) {
                done = try await retention.run(userID: user.id)
            } catch {
                switch error {
                case .alreadyRunning: throw APIError.http(status: .conflict, error.description)
                case .store(let failure): throw APIError.storeFailed(failure)
                }
            }
            guard let run = done else {
                throw APIError.http(status: .conflict, "retention is off for you: set a period first")
            }
            if run.deletedFixes > 0 || run.deletedVisits > 0 { tiles.historyRemoved(userID: user.id) }
            return try Response.json(RetentionJSON.RunJSON(run))
        }
    }
}
