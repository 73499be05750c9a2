import Testing
import TravelogFormats

/// Damaged documents: each must give an outcome (events or a syntax error), never a crash, and
/// the same outcome however it is cut into blocks.
@Suite("XML damaged documents")
struct XMLMutationTests {
    static let seed: [UInt8] = Array("""
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE gpx [<!ENTITY x "y">]>
    <gpx version="1.1" xmlns:g="urn:g"><!-- c --><trk><name>A &amp; B &#233;</name>
    <trkseg><trkpt lat="47.1" lon='8.2'><ele>1.5</ele><g:hr>80</g:hr><x/><![CDATA[<z>]]></trkpt><?p q?></trkseg></trk></gpx>

    """.utf8)

    static let specials: [UInt8] = Array("<>/&;'\"=![]-?#x \n\r".utf8) + [0x00, 0xC3, 0xA9, 0xFF, 0xD8]

    @Test("300 damaged documents give the same outcome in one block and in small ones")
    func damaged() {
        var state: UInt64 = 0xDA_4A6E
        func random(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        var failures = 0
        for _ in 0..<300 {
            var bytes = Self.seed
            for _ in 0..<(1 + random(4)) {
                let position = random(bytes.count)
                switch random(3) {
                case 0: bytes[position] = Self.specials[random(Self.specials.count)]
                case 1: bytes.remove(at: position)
                default: bytes.insert(Self.specials[random(Self.specials.count)], at: position)
                }
            }
            let whole = XMLOutcome(MemoryByteSource(bytes))
            if case .failure(let error) = whole {
                failures += 1
                #expect(error.position.byteOffset <= bytes.count)
            }
            let small = XMLOutcome(MemoryByteSource(bytes, maximumChunkBytes: 3), options: .init(bufferCapacityBytes: 16))
            #expect(small == whole, "\(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(failures > 150, "most damage is detected")
    }
}
