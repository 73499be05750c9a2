import ArgumentParser
import Foundation
import TravelogAccounts
import TravelogFormats
import TravelogServer
import TravelogStore

/// `travelog retention`: how long a user keeps their history. Fixes older than the period are
/// deleted by the server once a day (and shortly after it starts), or at once by `retention run`.
struct RetentionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retention",
        abstract: "How long your history is kept: fixes older than the period are deleted daily.",
        discussion: """
        A period is a whole number of days, weeks or years (30d, 26w, 2y; a year is 365 days; 'm' is refused: minutes or \
        months?). Users without a setting of their own get the server's default (travelog serve --retention 365d); these \
        commands read the database only, so they show that default as 'the server's'. The same at GET/PUT \
        /api/v1/account/retention, …/preview and POST …/run, and on the page (Settings → Retention).
        """,
        subcommands: [SetPeriod.self, Show.self, Preview.self, Run.self],
        defaultSubcommand: Show.self)

    struct SetPeriod: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set the period: `365d`, `off` (keep everything), or `default` (the server's).")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Argument(help: ArgumentHelp("365d, 52w, 2y, off or default.", valueName: "period")) var period: String
        @Option(help: ArgumentHelp("The journal's visits older than the period: keep (the default) or delete.", valueName: "keep|delete"))
        var journal: RetentionSetting.Journal?

        func validate() throws {
            if isDefault {
                if journal != nil { throw ValidationError("--journal goes with a period, not with 'default'") }
                return
            }
            do { _ = try RetentionSetting.days(from: period) } catch { throw ValidationError(error.description) }
        }

        private var isDefault: Bool { RetentionSetting.isServerDefault(period) }

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            let setting = isDefault ? nil : try RetentionSetting(days: try RetentionSetting.days(from: period), journal: journal ?? .keep)
            try await store.setRetentionSetting(setting, userID: user.id, at: Date())
            print(RetentionOutput.text(try await RetentionJSON.read(HistoryRetention(store: store), userID: user.id)))
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the period, the journal's choice and the last run (the default).")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Flag(help: "Print JSON, as GET /api/v1/account/retention answers.") var json = false

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            let answer = try await RetentionJSON.read(HistoryRetention(store: store), userID: user.id)
            print(json ? try RegionsOutput.json(answer) : RetentionOutput.text(answer))
        }
    }

    struct Preview: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Say what a run would delete now: fixes per device, journal entries.")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Flag(help: "Print JSON, as GET /api/v1/account/retention/preview answers.") var json = false

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            let preview = RetentionPreviewJSON(try await HistoryRetention(store: store).preview(userID: user.id))
            print(json ? try RegionsOutput.json(preview) : RetentionOutput.text(preview))
        }
    }

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete what the period says must go, now.",
            discussion: """
            On a terminal it shows what goes and asks y/N (--yes does not ask), then shows progress; without a terminal it \
            needs --yes and prints only the summary. A running server's map rebuilds its index at its own next run or restart.
            """)
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Flag(help: "Delete without asking.") var yes = false

        /// Whether the question can be asked (tests answer false: no terminal).
        nonisolated(unsafe) static var standardInputIsTerminal: () -> Bool = { isatty(STDIN_FILENO) == 1 }

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            let retention = HistoryRetention(store: store)
            let preview = try await retention.preview(userID: user.id)
            guard preview.cutoff != nil else { throw RetentionCommandError.off }
            if !yes, preview.fixes > 0 || (preview.applied.setting.journal == .delete && preview.visits > 0) {
                guard Self.standardInputIsTerminal() else { throw RetentionCommandError.notConfirmed(fixes: preview.fixes) }
                print(RetentionOutput.text(RetentionPreviewJSON(preview)))
                FileHandle.standardError.write(Data("Delete them now? [y/N] ".utf8))
                let answer = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces).lowercased()
                guard answer == "y" || answer == "yes" else { throw RetentionCommandError.declined }
            }
            let bar = ProgressBar(label: "deleting")
            let done = try await retention.run(userID: user.id) { deleted, total in
                bar.update(items: deleted, totalItems: total, itemName: "fixes")
            } as RetentionRun?
            bar.finish()
            guard let done else { throw RetentionCommandError.off }
            print("deleted \(done.deletedFixes) fixes before \(ISO8601TimeFormatter.string(done.cutoff))"
                  + (preview.applied.setting.journal == .delete ? " and \(done.deletedVisits) journal visits" : "; the journal is kept"))
        }
    }
}

enum RetentionCommandError: Error, CustomStringConvertible {
    /// No period applies to the user (none of their own, and the command line knows no server default).
    case off
    /// Fixes would go and no terminal can be asked (and no --yes was given).
    case notConfirmed(fixes: Int)
    /// The person answered no.
    case declined

    var description: String {
        switch self {
        case .off: "retention is off for this user: set a period first (travelog retention set 365d)"
        case .notConfirmed(let fixes): "\(fixes) fixes would be deleted: add --yes to confirm without a terminal (nothing was deleted)"
        case .declined: "nothing deleted"
        }
    }
}

/// Retention for people, as `travelog retention` and `travelog info` print it.
enum RetentionOutput {
    static func text(_ answer: RetentionJSON) -> String {
        let (setting, run) = lines(answer)
        return "retention: \(setting)\nlast run: \(run)"
    }

    /// The setting (`365d; journal entries are kept`) and the last run, each on a line of its own.
    static func lines(_ answer: RetentionJSON) -> (setting: String, lastRun: String) {
        let journal = answer.journal == "delete" ? "journal entries older than that are deleted" : "journal entries are kept"
        let setting = switch answer.source {
        case "server": "\(answer.period) (the server's default); \(journal)"
        case "none": "off (everything is kept)"
        default: answer.days == nil ? "off (everything is kept, whatever the server's default)" : "\(answer.period); \(journal)"
        }
        guard let run = answer.lastRun else { return (setting, "never") }
        return (setting, "\(run.ranAt), deleted \(run.deletedFixes) fixes before \(run.cutoff) and \(run.deletedVisits) journal visits")
    }

    static func text(_ preview: RetentionPreviewJSON) -> String {
        guard let cutoff = preview.cutoff else { return "retention is off: nothing would be deleted" }
        var lines = ["\(preview.fixes) fixes before \(cutoff) would be deleted (period \(preview.period))"]
        for device in preview.devices {
            lines.append("  \(TerminalText.escaped(device.device))\t\(device.fixes) fixes\t\(device.oldest ?? "-") … \(device.newest ?? "-")")
        }
        lines.append(preview.journal == "delete" ? "\(preview.journalEntries) journal entries ended before then and would be deleted"
                                                : "\(preview.journalEntries) journal entries ended before then and are kept")
        return lines.joined(separator: "\n")
    }
}

extension RetentionSetting.Journal: ExpressibleByArgument {}
