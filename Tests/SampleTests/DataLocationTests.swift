import Foundation
import SampleSupport
import Testing

@Suite("Where a sample keeps its data by default")
struct DataLocationTests {
    @Test(
        "the default data folder follows XDG_DATA_HOME, then HOME", .enabled(if: !isApplePlatform))
    func defaultLocation() {
        #expect(
            DataLocation.defaultFolder(
                for: "App", environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"]
            ).path
                == "/data/App"
        )
        #expect(
            DataLocation.defaultFolder(
                for: "App", environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"]
            ).path
                == "/home/u/.local/share/App"
        )
        #expect(
            DataLocation.defaultFolder(for: "App", environment: ["HOME": "/home/u"]).path
                == "/home/u/.local/share/App")
    }
}

#if canImport(Darwin)
    private let isApplePlatform = true
#else
    private let isApplePlatform = false
#endif
