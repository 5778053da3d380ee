import MVCObservation
import Testing

@Suite("Observing from async code")
struct ValueStreamTests {
    @Test("the value stream yields the current value, then each new one")
    func currentThenEachNew() async {
        let property = ObservableProperty(1)
        var iterator = property.values().makeAsyncIterator()

        property.value = 2
        property.value = 3

        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == 2)
        #expect(await iterator.next() == 3)
    }

    @Test("the value stream ends when the property goes away with its model")
    func endsWithModel() async {
        var counters: Counters? = Counters(first: 1)
        let stream = counters?.first.values()
        var iterator = stream?.makeAsyncIterator()
        #expect(await iterator?.next() == 1)

        counters = nil

        #expect(await iterator?.next() == nil)
    }

    @Test("a stream does not keep the property alive")
    func streamDoesNotRetainProperty() {
        var property: ObservableProperty<Int>? = ObservableProperty(1)
        weak let weakProperty = property
        let stream = property?.values()

        property = nil

        #expect(weakProperty == nil)
        _ = stream
    }

    @Test(
        "cancelling the consuming task ends the stream and its registration goes at the next change"
    )
    func cancellationReleasesRegistration() async {
        let property = ObservableProperty(0)
        let stream = property.values()
        #expect(property.observationCount == 1)
        let consumer = Task {
            var seen: [Int] = []
            for await value in stream { seen.append(value) }
            return seen
        }

        consumer.cancel()
        let seen = await consumer.value
        property.value = 1

        #expect(seen.allSatisfy { $0 == 0 })
        #expect(property.observationCount == 0)
    }
}
