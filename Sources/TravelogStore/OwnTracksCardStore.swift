import Foundation

/// What an OwnTracks phone's `card` message says of the person who carries it: a name and a face
/// (base64 of a small image, as the app sends it). The apps show cards beside friends' positions;
/// Travelog keeps the latest one per device for that.
public struct OwnTracksCard: Hashable, Sendable {
    public var name: String?
    /// Base64 of the image (PNG or JPEG), as sent.
    public var face: String?

    /// The longest name kept, characters.
    public static let maximumNameLength = 200
    /// The longest face kept, base64 characters (a phone's is a few kilobytes).
    public static let maximumFaceLength = 200_000

    /// - Throws: `OwnTracksCardError` when the card has neither a name nor a face, or either is too long.
    public init(name: String?, face: String?) throws(OwnTracksCardError) {
        let name = name.flatMap { $0.isEmpty ? nil : $0 }
        let face = face.flatMap { $0.isEmpty ? nil : $0 }
        guard name != nil || face != nil else { throw .empty }
        if let name, name.count > Self.maximumNameLength { throw .nameTooLong(characters: name.count) }
        if let face, face.utf8.count > Self.maximumFaceLength { throw .faceTooLarge(characters: face.utf8.count) }
        self.name = name
        self.face = face
    }
}

/// Why a card is not kept.
public enum OwnTracksCardError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case nameTooLong(characters: Int)
    case faceTooLarge(characters: Int)

    public var description: String {
        switch self {
        case .empty: "card: neither a name nor a face"
        case .nameTooLong(let count): "card: a name of \(count) characters, more than the \(OwnTracksCard.maximumNameLength) kept"
        case .faceTooLarge(let count): "card: a face of \(count) characters, more than the \(OwnTracksCard.maximumFaceLength) kept"
        }
    }
}

/// The latest OwnTracks card of each device. Every backend keeps it with the device (SQLite and
/// PostgreSQL: `devices.owntracks_card_name`, `owntracks_card_face`), so it goes when the device
/// goes. Not part of `TravelogStore`: callers ask `store as? any OwnTracksCardStore`.
public protocol OwnTracksCardStore: Sendable {
    /// Sets or (with `nil`) clears the device's card. - Throws: `StoreError.unknownDevice`.
    func setOwnTracksCard(_ card: OwnTracksCard?, deviceID: DeviceID) async throws(StoreError)
    /// The device's card, if one was received.
    func ownTracksCard(deviceID: DeviceID) async throws(StoreError) -> OwnTracksCard?
}
