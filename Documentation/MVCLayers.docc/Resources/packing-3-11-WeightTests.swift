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
}
