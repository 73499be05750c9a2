import Foundation
import TravelogFormats
import TravelogStore

/// Why a share link could not be made, revoked or opened.
public enum ShareError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A day, a time or an expiry that cannot be read: `name` is the option or field.
    case unreadable(name: String, text: String)
    /// The range ends before it starts (or is empty).
    case emptyRange
    /// The range is longer than a link may show.
    case rangeTooLong(maximumDays: Int)
    /// The expiry is not in the future.
    case expiryPassed
    /// A live link's duration is not within the bounds.
    case liveDuration(maximumHours: Int)
    /// No visit of the user with this id, or none that a trip leaves from (it has not ended, or no visit follows it).
    case unknownTrip(VisitID)
    case passwordTooShort(minimumCharacters: Int)
    /// The title is longer than `maximumCharacters` or holds control characters.
    case invalidTitle(maximumCharacters: Int)
    /// The user has no link with this id.
    case unknownShare(ShareID)
    case account(AccountError)
    case store(StoreError)

    public var description: String {
        switch self {
        case .unreadable(let name, let text): "\(name) '\(text)': expected a day (YYYY-MM-DD), an ISO 8601 time\(name.contains("expires") ? " or never" : "")"
        case .emptyRange: "the range ends before it starts"
        case .rangeTooLong(let days): "a share link shows at most \(days) days"
        case .expiryPassed: "the expiry must lie in the future"
        case .liveDuration(let hours): "a live link lasts from one minute to \(hours) hours"
        case .unknownTrip(let id): "no trip leaves from visit \(id): the visit must be yours, over, and followed by another"
        case .passwordTooShort(let minimum): "the link's password is too short: use at least \(minimum) characters"
        case .invalidTitle(let maximum): "the title must be printable and at most \(maximum) characters"
        case .unknownShare(let id): "no share link \(id)"
        case .account(let error): error.description
        case .store(let error): error.description
        }
    }
}

/// What a new link shows, before it is made.
public struct ShareRequest: Sendable, Equatable {
    public var kind: ShareKind
    public var from: Date
    public var to: Date
    public var title: String?
    public var password: String?
    public var hideVisits: Bool
    /// Whether the link shows the range's photos.
    public var includePhotos: Bool
    /// When the link stops working; nil for never (a live link always ends with its range).
    public var expiresAt: Date?

    public init(kind: ShareKind, from: Date, to: Date, title: String? = nil, password: String? = nil, hideVisits: Bool = false,
                includePhotos: Bool = false, expiresAt: Date?) {
        self.kind = kind
        self.from = from
        self.to = to
        self.title = title
        self.password = password
        self.hideVisits = hideVisits
        self.includePhotos = includePhotos
        self.expiresAt = expiresAt
    }
}

/// What a link shows, as a person gives it; `ShareLinks.request` turns it into instants.
public enum ShareScope: Sendable, Equatable {
    /// One day (`YYYY-MM-DD`), midnight to midnight in the time zone given.
    case day(String)
    /// From a day or time to a day (inclusive) or time.
    case range(from: String, to: String)
    /// The trip that leaves from this visit.
    case trip(VisitID)
    /// The live position from now on, for this long.
    case live(seconds: TimeInterval)
}

/// When a link stops working, as a person gives it.
public enum ShareExpiry: Sendable, Equatable {
    /// `ShareLinks.defaultLifetimeSeconds` from now.
    case standard
    case never
    /// A day (its end, in the time zone given) or a time.
    case at(String)
    case after(seconds: TimeInterval)
}

/// Share links, for the command line and the server alike: making one (a token of 128 random
/// bits, shown once; the store keeps its SHA-256 digest, as for device tokens), listing, revoking,
/// and finding the one a token opens, with its state.
public struct ShareLinks: Sendable {
    public let store: any TravelogStore
    public let accounts: AccountService

    /// Random bytes in a token: 128 bits.
    public static let tokenBytes = 16
    public static let maximumRangeDays = 366
    public static let maximumLiveHours = 7 * 24
    public static let maximumTitleCharacters = 200
    /// A link's expiry when none is given (`travelog share create`, the API): a week.
    public static let defaultLifetimeSeconds: TimeInterval = 7 * 86_400

    public init(store: any TravelogStore, accounts: AccountService) {
        self.store = store
        self.accounts = accounts
    }

    /// A new token: 16 bytes from the system's generator as URL-safe base64 without padding (22 characters).
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<tokenBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether text has the shape of a token (22 URL-safe base64 characters); anything else is not looked up.
    public static func isTokenShaped(_ text: some StringProtocol) -> Bool {
        text.utf8.count == 22 && text.utf8.allSatisfy { byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45 || byte == 95
        }
    }

    /// Makes a link. - Returns: the link and its token (shown once).
    public func create(_ request: ShareRequest, userID: UserID, now: Date = Date()) async throws(ShareError) -> (share: StoredShare, token: String) {
        guard request.from < request.to else { throw .emptyRange }
        if request.kind == .live {
            guard request.to.timeIntervalSince(request.from) >= 60,
                  request.to.timeIntervalSince(request.from) <= Double(Self.maximumLiveHours) * 3600 else {
                throw .liveDuration(maximumHours: Self.maximumLiveHours)
            }
        } else {
            guard request.to.timeIntervalSince(request.from) <= Double(Self.maximumRangeDays) * 86_400 else {
                throw .rangeTooLong(maximumDays: Self.maximumRangeDays)
            }
        }
        // A live link ends with its range, whatever else was asked.
        let expiresAt = request.kind == .live ? min(request.expiresAt ?? request.to, request.to) : request.expiresAt
        if let expiresAt, expiresAt <= now { throw .expiryPassed }
        let title = request.title?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let title, title.count > Self.maximumTitleCharacters || title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .invalidTitle(maximumCharacters: Self.maximumTitleCharacters)
        }
        var passwordHash: String?
        if let password = request.password {
            do { passwordHash = try await accounts.sharePasswordHash(password) } catch {
                if case .passwordTooShort(let minimum) = error { throw .passwordTooShort(minimumCharacters: minimum) }
                throw .account(error)
            }
        }
        let record = ShareRecord(userID: userID, kind: request.kind, from: request.from, to: request.to,
                                 title: title?.isEmpty == false ? title : nil, passwordHash: passwordHash,
                                 hideVisits: request.hideVisits, includePhotos: request.includePhotos, createdAt: now,
                                 expiresAt: expiresAt)
        let token = Self.newToken()
        do {
            return (try await store.addShare(record, tokenDigest: Secrets.digest(token)), token)
        } catch {
            throw .store(error)
        }
    }

    /// The request for `scope` and `expiry`, its days read in `timeZone`, its trip looked up.
    public func request(_ scope: ShareScope, expiry: ShareExpiry, timeZone: TimeZone, userID: UserID, title: String? = nil,
                        password: String? = nil, hideVisits: Bool = false, includePhotos: Bool = false,
                        now: Date = Date()) async throws(ShareError) -> ShareRequest {
        func bound(_ text: String, _ name: String, endOfDay: Bool) throws(ShareError) -> Date {
            guard let date = TimeRangeBound.parse(text, timeZone: timeZone, endOfDay: endOfDay) else {
                throw .unreadable(name: name, text: text)
            }
            return date
        }
        let kind: ShareKind, from: Date, to: Date
        switch scope {
        case .day(let day):
            guard day.count == 10 else { throw .unreadable(name: "day", text: day) }
            (kind, from, to) = (.day, try bound(day, "day", endOfDay: false), try bound(day, "day", endOfDay: true))
        case .range(let start, let end):
            (kind, from, to) = (.range, try bound(start, "from", endOfDay: false), try bound(end, "to", endOfDay: true))
        case .trip(let visit):
            let range = try await tripRange(leaving: visit, userID: userID)
            (kind, from, to) = (.trip, range.from, range.to)
        case .live(let seconds):
            guard seconds.isFinite, seconds >= 60, seconds <= Double(Self.maximumLiveHours) * 3600 else {
                throw .liveDuration(maximumHours: Self.maximumLiveHours)
            }
            (kind, from, to) = (.live, now, now.addingTimeInterval(seconds))
        }
        let expiresAt: Date?
        switch expiry {
        case .standard: expiresAt = now.addingTimeInterval(Self.defaultLifetimeSeconds)
        case .never: expiresAt = nil
        case .at(let text): expiresAt = try bound(text, "expires", endOfDay: true)
        case .after(let seconds):
            guard seconds.isFinite, seconds > 0, seconds < 100 * 365 * 86_400 else { throw .expiryPassed }
            expiresAt = now.addingTimeInterval(seconds)
        }
        return ShareRequest(kind: kind, from: from, to: to, title: title, password: password?.isEmpty == false ? password : nil,
                            hideVisits: hideVisits, includePhotos: includePhotos, expiresAt: expiresAt)
    }

    /// The stretch of the trip that leaves from a visit: from its departure to the arrival of the
    /// device's next visit (as the journal's trips run).
    public func tripRange(leaving visitID: VisitID, userID: UserID) async throws(ShareError) -> (from: Date, to: Date) {
        let (origin, next) = try await tripVisits(leaving: visitID, userID: userID)
        guard let departure = origin.shownDeparture else { throw ShareError.unknownTrip(visitID) }
        return (departure, next.visit.arrival)
    }

    /// The visit a trip leaves and the device's next visit, which it reaches.
    public func tripVisits(leaving visitID: VisitID, userID: UserID) async throws(ShareError) -> (origin: StoredVisit, next: StoredVisit) {
        do {
            guard let origin = try await store.visit(id: visitID), !origin.hidden,
                  let departure = origin.shownDeparture,
                  let device = try await store.device(id: origin.visit.deviceID), device.userID == userID else {
                throw ShareError.unknownTrip(visitID)
            }
            let later = try await store.visits(userID: userID, deviceIDs: [device.id], from: departure, to: nil, includeHidden: false)
            guard let next = later.first(where: { $0.id != visitID && $0.visit.arrival >= departure }) else {
                throw ShareError.unknownTrip(visitID)
            }
            return (origin, next)
        } catch let error as ShareError {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .unknownTrip(visitID)
        }
    }

    public func list(userID: UserID) async throws(ShareError) -> [StoredShare] {
        do { return try await store.shares(userID: userID) } catch { throw .store(error) }
    }

    /// Revokes one of the user's links at once.
    @discardableResult
    public func revoke(id: ShareID, userID: UserID, now: Date = Date()) async throws(ShareError) -> StoredShare {
        let revoked: StoredShare?
        do { revoked = try await store.revokeShare(id: id, userID: userID, at: now) } catch { throw .store(error) }
        guard let revoked else { throw .unknownShare(id) }
        return revoked
    }

    /// What a token opens.
    public enum Lookup: Sendable, Equatable {
        case open(StoredShare)
        case expired
        case revoked
        /// No link has this token (or the text is no token at all).
        case unknown
    }

    /// The link a token opens at `now`, and whether it still reads anything. An owner who was
    /// disabled shares nothing.
    public func lookup(token: some StringProtocol, now: Date = Date()) async throws(StoreError) -> Lookup {
        guard Self.isTokenShaped(token), let share = try await store.share(tokenDigest: Secrets.digest(token)) else { return .unknown }
        if share.revokedAt != nil { return .revoked }
        if !share.isOpen(at: now) { return .expired }
        guard let owner = try await store.user(id: share.record.userID), !owner.isDisabled else { return .revoked }
        return .open(share)
    }

    /// The key a visitor who gave a link's password sends with each read: the digest of the token
    /// and the password's hash, so it opens that link only and dies with it.
    public static func unlockKey(token: some StringProtocol, passwordHash: String) -> String {
        Secrets.digest("share-unlock:\(token):\(passwordHash)").rawValue
    }
}
