import ArgumentParser
import Foundation
import TravelogAccounts
import TravelogFormats
import TravelogStore

/// `travelog share`: links that show part of a user's history to anyone holding them, read-only.
struct ShareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Share links: a day, a range, a trip or the live position, read-only, for anyone holding the link.",
        discussion: """
        A link is BASE/s/TOKEN (128 random bits; only its digest is kept, so it is shown once). It shows the path \
        and the journal entries' titles of what it shares, nothing else, until it expires (410 Gone after) or is \
        revoked. The same at POST/GET /api/v1/shares and DELETE /api/v1/shares/ID, and on the page.
        """,
        subcommands: [Create.self, List.self, Revoke.self],
        defaultSubcommand: List.self)

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a link and print it (once).")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Option(help: ArgumentHelp("Share one day.", valueName: "YYYY-MM-DD")) var day: String?
        @Option(help: ArgumentHelp("Share from this day or time (with --to).", valueName: "time")) var from: String?
        @Option(help: ArgumentHelp("… to this day (inclusive) or time.", valueName: "time")) var to: String?
        @Option(help: ArgumentHelp("Share the trip leaving from this journal entry (its id in `travelog visits --json`).", valueName: "id"))
        var trip: Int64?
        @Flag(help: "Share the live position from now on.") var live = false
        @Option(name: .customLong("for"), help: ArgumentHelp("How long a live link shows the position (90m, 24h, 3d; at most 7d).", valueName: "duration"))
        var duration: String?
        @Option(help: ArgumentHelp("When the link stops working: a day, a time, a duration (7d) or never. Default: 7d.", valueName: "when"))
        var expires: String?
        @Flag(help: "Ask for a password the visitor must give first (typed twice, or --password-stdin).") var password = false
        @Flag(help: "Read that password from the first line of standard input.") var passwordStdin = false
        @Option(help: ArgumentHelp("The title the link's page shows.", valueName: "text")) var title: String?
        @Flag(help: "Leave the journal's entries out.") var hideVisits = false
        @Flag(help: "Show the photos taken in the range (placed ones; none inside a hidden privacy zone).") var photos = false
        @Option(help: ArgumentHelp("Days are read in this IANA time zone (default UTC).", valueName: "zone")) var timezone: String?
        @Option(help: ArgumentHelp("The server's address as visitors reach it, to print the whole link.", valueName: "url"))
        var baseURL: String?
        @Flag(help: "Print JSON (the API's answer) instead of text.") var json = false

        func validate() throws {
            let scopes = [day != nil, from != nil || to != nil, trip != nil, live].filter { $0 }.count
            guard scopes == 1 else { throw ValidationError("give one of --day DATE, --from T --to T, --trip ID or --live") }
            if from != nil || to != nil, from == nil || to == nil { throw ValidationError("--from and --to go together") }
            if duration != nil, !live { throw ValidationError("--for goes with --live") }
            if let duration, BackupInterval.seconds(duration) == nil {
                throw ValidationError("--for '\(duration)': expected a duration such as 90m, 24h or 3d")
            }
            if let timezone, TimeZone(identifier: timezone) == nil { throw ValidationError("--timezone '\(timezone)' is not an IANA time zone") }
            if passwordStdin, !password { throw ValidationError("--password-stdin goes with --password") }
        }

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            let links = ShareLinks(store: store, accounts: AccountService(store: store))
            let scope: ShareScope
            if let day { scope = .day(day) }
            else if let from, let to { scope = .range(from: from, to: to) }
            else if let trip { scope = .trip(VisitID(rawValue: trip)) }
            else { scope = .live(seconds: duration.flatMap(BackupInterval.seconds) ?? 86_400) }
            let expiry: ShareExpiry = switch expires {
            case nil: .standard
            case "never": .never
            case let text?: BackupInterval.seconds(text).map { .after(seconds: $0) } ?? .at(text)
            }
            let secret = password ? (passwordStdin ? try PasswordPrompt.fromStandardInput() : try PasswordPrompt.ask(for: "the link")) : nil
            let now = Date()
            let request = try await links.request(scope, expiry: expiry, timeZone: timezone.flatMap(TimeZone.init(identifier:)) ?? .gmt,
                                                  userID: user.id, title: title, password: secret, hideVisits: hideVisits,
                                                  includePhotos: photos, now: now)
            let (share, token) = try await links.create(request, userID: user.id, now: now)
            let base = baseURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
            if json {
                print(try ShareOutput.json(ShareJSON(share, now: now, token: token, baseURL: base)))
                return
            }
            print(base.map { "\($0)/s/\(token)" } ?? "/s/\(token)  (put the server's address in front, or pass --base-url)")
            print(ShareOutput.line(share, now: now))
            print("(the link is shown once: only its digest is kept)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The user's links, newest first: id, status, what, expiry, views.")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Flag(help: "Print JSON (as GET /api/v1/shares) instead of text.") var json = false

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            let shares = try await store.shares(userID: user.id)
            let now = Date()
            if json {
                print(try ShareOutput.json(shares.map { ShareJSON($0, now: now) }))
                return
            }
            if shares.isEmpty { print("no share links") }
            for share in shares { print(ShareOutput.line(share, now: now)) }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a link: it reads nothing from now on (410 Gone).")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Argument(help: "The link's id (travelog share list).") var id: Int64

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            let revoked = try await ShareLinks(store: store, accounts: AccountService(store: store))
                .revoke(id: ShareID(rawValue: id), userID: user.id)
            print("revoked share link \(revoked.id) (\(revoked.views) views)")
        }
    }
}
