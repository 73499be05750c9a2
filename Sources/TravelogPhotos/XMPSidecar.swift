import Foundation
import TravelogCore

/// A GPS position written beside a photo as an XMP sidecar, `PHOTO.EXT.xmp` (the name darktable and
/// digiKam read), in the `exif:` namespace of the XMP specification (Part 2, "EXIF schema for
/// GPS": `DDD,MM.mmmmmmmmk`). The photo is never opened for writing; an existing sidecar (which may
/// hold a person's edits) is never replaced.
public enum XMPSidecar {
    /// Why a sidecar was not written.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        case exists(path: String)
        case unwritable(path: String, reason: String)

        public var description: String {
            switch self {
            case .exists(let path): "\(path) already exists: left as it is"
            case .unwritable(let path, let reason): "\(path) cannot be written: \(reason)"
            }
        }
    }

    /// The sidecar's path for a photo.
    public static func path(for photoPath: String) -> String { photoPath + ".xmp" }

    /// The sidecar's text.
    public static func document(coordinate: Coordinate) -> String {
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Travelog">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:exif="http://ns.adobe.com/exif/1.0/"
           exif:GPSVersionID="2.3.0.0"
           exif:GPSMapDatum="WGS-84"
           exif:GPSLatitude="\(angle(coordinate.latitude, positive: "N", negative: "S"))"
           exif:GPSLongitude="\(angle(coordinate.longitude, positive: "E", negative: "W"))"/>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>

        """
    }

    /// `DDD,MM.mmmmmmmmk`: whole degrees, minutes to 1e-8 (2 mm), the hemisphere.
    static func angle(_ degrees: Double, positive: String, negative: String) -> String {
        let magnitude = abs(degrees)
        var whole = Int(magnitude)
        var minutes = ((magnitude - Double(whole)) * 60 * 1e8).rounded() / 1e8
        if minutes >= 60 { whole += 1; minutes -= 60 }
        return String(format: "%d,%011.8f%@", whole, minutes, degrees < 0 ? negative : positive)
    }

    /// Writes the sidecar beside `photoPath`: to a temporary file first, then linked into place,
    /// which fails rather than replace a sidecar that appeared meanwhile.
    /// - Returns: the sidecar's path.
    @discardableResult
    public static func write(coordinate: Coordinate, besidePhoto photoPath: String) throws(Failure) -> String {
        let target = path(for: photoPath)
        if FileManager.default.fileExists(atPath: target) { throw .exists(path: target) }
        let temporary = target + ".travelog-\(getpid()).partial"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(document(coordinate: coordinate).utf8)) else {
            throw .unwritable(path: target, reason: String(cString: strerror(errno)))
        }
        defer { unlink(temporary) }
        guard link(temporary, target) == 0 else {
            let code = errno
            throw code == EEXIST ? .exists(path: target) : .unwritable(path: target, reason: String(cString: strerror(code)))
        }
        return target
    }
}
