import Foundation
import Testing
@testable import TravelogRender
import TravelogStore

@Suite("Device colours")
struct DeviceColorTests {
    func device(_ id: Int64, _ name: String) -> Device {
        Device(id: DeviceID(rawValue: id), userID: UserID(rawValue: 1), name: name, createdAt: Date(timeIntervalSince1970: 0))
    }

    @Test("a device's colour is its place among the user's devices sorted by name, as the page's colors.js gives it")
    func placeAmongDevices() {
        #expect(RenderColor.devicePalette.count == 12)
        #expect(RenderColor.devicePalette[0] == RenderColor(rgb: 0x0072B2) && RenderColor.devicePalette[11] == RenderColor(rgb: 0x44AA99))
        let devices = [device(1, "phone"), device(2, "watch"), device(3, "imports"), device(4, "car"), device(5, "Tablet")]
        let forward = HistoryIndexLoader.colorIndices(devices)
        let backward = HistoryIndexLoader.colorIndices(devices.reversed())
        // JavaScript's sort: by UTF-16 code units, capitals first.
        #expect(forward == backward)
        #expect(["Tablet", "car", "imports", "phone", "watch"].map { name in forward[devices.first { $0.name == name }!.id] } == [0, 1, 2, 3, 4])
    }

    @Test("twelve devices get twelve different colours")
    func twelveColours() {
        let devices = (1...12).map { device(Int64($0), "device \($0)") }
        let indices = HistoryIndexLoader.colorIndices(devices)
        #expect(Set(indices.values.map(RenderColor.device)).count == 12)
    }

    @Test("every device gets an index of its own, past twelve too")
    func uniqueIndices() {
        let devices = (1...20).map { device(Int64($0), "device \($0)") }
        let indices = HistoryIndexLoader.colorIndices(devices)
        #expect(Set(indices.values).count == devices.count)
    }
}
