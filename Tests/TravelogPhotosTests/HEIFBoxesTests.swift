import Foundation
import Testing
@testable import TravelogPhotos

@Suite("HEIF boxes read without Exiv2")
struct HEIFBoxesTests {
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + body.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + body
    }

    static let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))

    @Test("boxes too short for their headers give nothing, never a trap", arguments: [
        [UInt8](),
        box("meta", []), box("meta", [0, 0]), box("meta", [0, 0, 0, 0]),
        box("meta", [0, 0, 0, 0] + box("iinf", [1, 0, 0, 0, 0]) + box("iloc", [1, 0, 0, 0])),
        box("meta", [0, 0, 0, 0] + box("iinf", [0, 0, 0, 0, 0, 1]) + box("iloc", [1, 0, 0, 0, 0x44, 0x40, 0xFF, 0xFF])),
        box("meta", [0, 0, 0, 0] + box("pitm", [1, 0, 0, 0, 0, 1]) + box("iprp", box("ipco", []) + box("ipma", [0, 0, 0, 0, 0, 0, 0, 0]))),
        box("meta", [0, 0, 0, 0] + box("pitm", [0, 0, 0, 0, 0, 1]) + box("iprp", box("ipco", []) + box("ipma", [0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]))),
    ])
    func truncated(meta: [UInt8]) {
        let data = Data(Self.ftyp + meta)
        #expect(HEIFImageSize.primaryImageSize(data) == nil)
        #expect(HEIFExifItem.tiffBlock(data) == nil)
        // Every prefix of the file, too.
        for length in 0..<data.count {
            _ = HEIFImageSize.primaryImageSize(data.prefix(length))
            _ = HEIFExifItem.tiffBlock(data.prefix(length))
        }
    }
}
