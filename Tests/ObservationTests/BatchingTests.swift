import MVCObservation
import Testing

@Suite("Batching changes")
struct BatchingTests {
    @Test(
        "changes in a batch reach each handler once, after the batch, with the values before and after it"
    )
    func onceAfterBatch() {
        let counters = Counters()
        let log = Log<String>()
        let tokens = [
            counters.first.observe {
                log.append("first \($0.oldValue ?? -1)→\($0.newValue ?? -1)")
            },
            counters.second.observe {
                log.append("second \($0.oldValue ?? -1)→\($0.newValue ?? -1)")
            },
        ]

        counters.changes.batch {
            counters.first.value = 1
            counters.second.value = 10
            counters.first.value = 2
            counters.first.value = 3
            log.append("end of batch body")
        }

        #expect(log.items == ["end of batch body", "first 0→3", "second 0→10"])
        withExtendedLifetime(tokens) {}
    }

    @Test("reads inside a batch see the newest value")
    func readsSeeNewestValue() {
        let counters = Counters()
        var seen = -1

        counters.changes.batch {
            counters.first.value = 4
            seen = counters.first.value
        }

        #expect(seen == 4)
    }

    @Test("a property that ends the batch where it started is not reported")
    func netZeroNotReported() {
        let counters = Counters(first: 5)
        let log = Log<ObservedChange<Int>>()
        let token = counters.first.observe { log.append($0) }

        counters.changes.batch {
            counters.first.value = 6
            counters.first.value = 5
        }

        #expect(log.items.isEmpty)
        withExtendedLifetime(token) {}
    }

    @Test("nested batches deliver only when the outermost ends")
    func nestedBatches() {
        let counters = Counters()
        let log = Log<String>()
        let token = counters.first.observe { log.append("changed to \($0.newValue ?? -1)") }

        counters.changes.batch {
            counters.changes.batch { counters.first.value = 1 }
            log.append("inner batch ended")
            counters.first.value = 2
        }

        #expect(log.items == ["inner batch ended", "changed to 2"])
        #expect(!counters.changes.isBatching)
        withExtendedLifetime(token) {}
    }

    @Test("a batch whose body throws still delivers what it changed, and rethrows")
    func throwingBatch() {
        struct Stop: Error {}
        let counters = Counters()
        let log = Log<ObservedChange<Int>>()
        let token = counters.first.observe { log.append($0) }

        #expect(throws: Stop.self) {
            try counters.changes.batch {
                counters.first.value = 1
                throw Stop()
            }
        }

        #expect(log.items == [.setting(0, 1)])
        withExtendedLifetime(token) {}
    }

    @Test("a prior notice is delivered at a property's first change in a batch, and only then")
    func priorInBatch() {
        let counters = Counters()
        let log = Log<String>()
        let token = counters.first.observe(options: [.prior, .old, .new]) { change in
            log.append("\(change.kind) old=\(change.oldValue ?? -1) stored=\(counters.first.value)")
        }

        counters.changes.batch {
            counters.first.value = 1
            counters.first.value = 2
        }

        #expect(log.items == ["prior old=0 stored=0", "setting old=0 stored=2"])
        withExtendedLifetime(token) {}
    }

    @Test("properties of another coordinator are not batched")
    func otherCoordinatorNotBatched() {
        let counters = Counters()
        let outsider = ObservableProperty(0)
        let log = Log<String>()
        let token = outsider.observe { _ in log.append("outsider") }

        counters.changes.batch {
            outsider.value = 1
            log.append("end of batch body")
        }

        #expect(log.items == ["outsider", "end of batch body"])
        withExtendedLifetime(token) {}
    }
}
