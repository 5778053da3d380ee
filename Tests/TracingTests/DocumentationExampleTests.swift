import MVCTracing
import Synchronization
import Testing

/// The example of the MVCTracing documentation article, compiled and run so it cannot rot.
@Suite("The documentation's example")
struct TracingDocumentationExampleTests {
    @Test("the MVCTracing overview example traces a hop to a layer the app named itself")
    func overviewExample() {
        // BEGIN MVCTracing example
        let cache = TraceLayer("cache")
        let lines = Mutex<[String]>([])
        let tracer = HopTracer { hop in lines.withLock { $0.append(hop.description) } }
        tracer.record(from: .store, to: cache, "lookup(ada@example.com)")
        // lines holds "store → cache: lookup(ada@example.com)"
        // END MVCTracing example

        #expect(lines.withLock { $0 } == ["store → cache: lookup(ada@example.com)"])
    }
}
