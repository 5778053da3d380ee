import MVCObservation
import Testing

@Suite("Observation tokens and lifetimes")
struct TokenTests {
    @Test("cancelling a token ends its observation")
    func cancelEnds() {
        let property = ObservableProperty(0)
        let log = Log<Int?>()
        let token = property.observe { log.append($0.newValue) }

        property.value = 1
        token.cancel()
        property.value = 2

        #expect(log.items == [1])
        #expect(token.isCancelled)
        #expect(property.observationCount == 0)
    }

    @Test("cancelling twice is harmless")
    func cancelTwice() {
        let property = ObservableProperty(0)
        let token = property.observe { _ in }

        token.cancel()
        token.cancel()

        #expect(property.observationCount == 0)
    }

    @Test("releasing the last reference to a token ends its observation")
    func releaseEnds() {
        let property = ObservableProperty(0)
        let log = Log<Int?>()
        var token: ObservationToken? = property.observe { log.append($0.newValue) }

        property.value = 1
        token = nil
        property.value = 2

        #expect(log.items == [1])
        #expect(property.observationCount == 0)
        #expect(token == nil)
    }

    @Test("a token does not keep the observed property alive")
    func tokenDoesNotRetainModel() {
        var counters: Counters? = Counters()
        weak let weakCounters = counters
        weak let weakProperty = counters?.first
        let token = counters?.first.observe { _ in }

        counters = nil

        #expect(weakCounters == nil)
        #expect(weakProperty == nil)
        #expect(token?.isCancelled == true)
    }

    @Test("a model does not keep an observer alive that captures itself weakly")
    func modelDoesNotRetainObserver() {
        final class Observer {
            var token: ObservationToken?
            var seen = 0
            init(_ property: ObservableProperty<Int>) {
                token = property.observe { [weak self] _ in self?.seen += 1 }
            }
        }
        let property = ObservableProperty(0)
        var observer: Observer? = Observer(property)
        weak let weakObserver = observer
        property.value = 1
        #expect(observer?.seen == 1)

        observer = nil

        #expect(weakObserver == nil)
        #expect(property.observationCount == 0)
    }

    @Test(
        "a handler is released at the property's next use after its observation ends",
        arguments: ["a change", "a new observation", "a count"])
    func handlerReleasedOnCancel(nextUse: String) {
        final class Captured {}
        let property = ObservableProperty(0)
        var captured: Captured? = Captured()
        weak let weakCaptured = captured
        let token = captured.map { object in property.observe { _ in _ = object } }
        captured = nil
        #expect(weakCaptured != nil)

        token?.cancel()
        switch nextUse {
        case "a change": property.value = 1
        case "a new observation": withExtendedLifetime(property.observe { _ in }) {}
        default: #expect(property.observationCount == 0)
        }

        #expect(weakCaptured == nil)
    }

    @Test("a property that goes away releases the handlers of observations still open")
    func propertyReleasesHandlers() {
        final class Captured {}
        var property: ObservableProperty<Int>? = ObservableProperty(0)
        var captured: Captured? = Captured()
        weak let weakCaptured = captured
        let token = captured.map { object in property?.observe { _ in _ = object } }
        captured = nil
        #expect(weakCaptured != nil)

        property = nil

        #expect(weakCaptured == nil)
        #expect(token??.isCancelled == true)
    }

    @Test("a token made with an action runs it once when released, then keeps nothing alive")
    func actionTokenRunsOnceOnRelease() {
        final class Captured {}
        var runs = 0
        var captured: Captured? = Captured()
        weak let weakCaptured = captured
        var token: ObservationToken? = captured.map { object in
            ObservationToken {
                _ = object
                runs += 1
            }
        }
        captured = nil
        #expect(token?.isCancelled == false)
        #expect(weakCaptured != nil)

        token = nil

        #expect(runs == 1)
        #expect(weakCaptured == nil)
    }

    @Test("cancelling a token made with an action runs it once and marks the token cancelled")
    func actionTokenCancel() {
        var runs = 0
        let token = ObservationToken { runs += 1 }

        token.cancel()
        token.cancel()

        #expect(runs == 1)
        #expect(token.isCancelled)
    }

    @Test("ten thousand observations released one by one leave the rest hearing every change")
    func manyReleases() {
        let property = ObservableProperty(0)
        let log = Log<Int>()
        var tokens = (0..<10_000).map { index in property.observe { _ in log.append(index) } }

        for index in stride(from: tokens.count - 1, through: 0, by: -1) where index % 10 != 0 {
            tokens.remove(at: index)
        }
        property.value = 1

        #expect(property.observationCount == 1_000)
        #expect(log.items == Array(stride(from: 0, to: 10_000, by: 10)))
    }
}
