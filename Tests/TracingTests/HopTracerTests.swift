import MVCTracing
import Synchronization
import Testing

@Suite("Hop tracing")
struct HopTracerTests {
    @Test("a tracer hands each hop to its sink, printed as 'from → to: message'")
    func recordsHops() {
        let hops = Mutex<[String]>([])
        let tracer = HopTracer { hop in hops.withLock { $0.append(hop.description) } }

        tracer.record(from: .view, to: .presenter, "buttonATapped()")
        tracer.record(from: .presenter, to: .model, "isSwitchAOn = on")

        #expect(
            hops.withLock { $0 } == [
                "view → presenter: buttonATapped()", "presenter → model: isSwitchAOn = on",
            ])
    }

    @Test("a disabled tracer does not build its messages")
    func disabledTracerIsFree() {
        var built = false
        func message() -> String {
            built = true
            return "never"
        }

        HopTracer.disabled.record(from: .view, to: .presenter, message())

        #expect(!built)
    }
}
