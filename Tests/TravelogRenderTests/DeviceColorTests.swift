import Foundation
import Testing
@testable import TravelogRender
import TravelogStore

@Suite("Device colours")
struct DeviceColorTests {
    func device(_ id: Int64, _ name: String) -> Device {
        Device(id: DeviceID(rawValue: id), userID: UserID(rawValue: 1), name: name, createdAt: Date(timeIntervalSince1970: 0))
    }

    @Test("a device's palette entry is FNV-1a of its name's UTF-16 units, as journal-map.js computes it")
    func hashOfName() {
        // Computed apart in Python: FNV-1a 32 of "phone" is 0x773611AF, of "imports" 0xAD01B6E5,
        // of "Ada's Pixel" 0x71CBBD25; the palette has 8 entries.
        #expect(RenderColor.devicePalette.count == 8)
        #expect(RenderColor.devicePaletteIndex(name: "phone") == 0x7736_11AF % 8)
        #expect(RenderColor.devicePaletteIndex(name: "imports") == 0xAD01_B6E5 % 8)
        #expect(RenderColor.devicePaletteIndex(name: "Ada's Pixel") == 0x71CB_BD25 % 8)
        #expect(RenderColor.devicePaletteIndex(name: "") == 0x811C_9DC5 % 8)
    }

    @Test("a device keeps its colour whatever the order its user's devices are listed in")
    func orderDoesNotMatter() {
        let devices = [device(1, "phone"), device(2, "watch"), device(3, "imports"), device(4, "car"), device(5, "tablet")]
        let forward = HistoryIndexLoader.colorIndices(devices)
        let backward = HistoryIndexLoader.colorIndices(devices.reversed())
        for device in devices {
            let palette = RenderColor.devicePalette.count
            #expect(forward[device.id]! % palette == RenderColor.devicePaletteIndex(name: device.name))
            #expect(backward[device.id]! % palette == forward[device.id]! % palette)
        }
    }

    @Test("devices whose names choose the same colour still get indices of their own")
    func uniqueIndices() {
        let devices = (1...20).map { device(Int64($0), "device \($0)") }
        let indices = HistoryIndexLoader.colorIndices(devices)
        #expect(Set(indices.values).count == devices.count)
    }
}
