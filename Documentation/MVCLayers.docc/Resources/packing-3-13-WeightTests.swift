import PackingCore
import Testing

@MainActor
@Suite("Weights through the facade")
struct WeightTests {
    @Test("a weight already known is not asked of the service again")
    func cachedLookupsSkipTheService() async {
        let service = SimulatedWeights(["socks": 120])
        let manager = PackingManager(service: service)

        await manager.lookUp("Socks")
        await manager.lookUp("Socks")

        #expect(manager.grams(of: "Socks") == 120)
        #expect(await service.lookups == 1)
    }

    @Test("a subscriber to one item's key hears only that item's weight")
    func keyedUpdates() async {
        let manager = PackingManager(service: SimulatedWeights(["socks": 120, "hat": 80]))
        var heard: [WeightUpdate] = []
        let hat = WeightUpdate.key(for: "Hat")
        let token = manager.weightUpdates.subscribe(to: hat) { heard.append($0) }

        await manager.lookUp("Socks")
        await manager.lookUp("Hat")

        #expect(heard.map(\.name) == ["Hat"] && heard.map(\.grams) == [80])
        withExtendedLifetime(token) {}
    }

    @Test("a name is one item whatever its case: “Socks” and “socks” are asked once")
    func lookupsIgnoreCase() async {
        let service = SimulatedWeights(["socks": 120])
        let manager = PackingManager(service: service)

        await manager.lookUp("Socks")
        await manager.lookUp("socks")

        #expect(manager.grams(of: "socks") == 120)
        #expect(await service.lookups == 1)
    }
}
