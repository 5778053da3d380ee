import MVCModel
import MVCObservation
import MVCTracing
import Synchronization
import Testing

@MainActor
@Suite("The switches model")
struct SwitchesModelTests {
    @Test("both switches start off unless told otherwise")
    func startsOff() {
        let model = SwitchesModel()
        let preset = SwitchesModel(isSwitchAOn: true)

        #expect(model.isSwitchAOn.value == false && model.isSwitchBOn.value == false)
        #expect(preset.isSwitchAOn.value == true && preset.isSwitchBOn.value == false)
    }

    @Test("reset reports each switch that was on exactly once")
    func resetReportsEachSwitchOnce() {
        let model = SwitchesModel(isSwitchAOn: true, isSwitchBOn: true)
        var heard: [String] = []
        let tokens = [
            model.isSwitchAOn.observe {
                heard.append("A \($0.oldValue == true)→\($0.newValue == true)")
            },
            model.isSwitchBOn.observe {
                heard.append("B \($0.oldValue == true)→\($0.newValue == true)")
            },
        ]

        model.reset()

        #expect(heard == ["A true→false", "B true→false"])
        withExtendedLifetime(tokens) {}
    }

    @Test("reset leaves a switch that was already off silent")
    func resetSkipsSwitchesAlreadyOff() {
        let model = SwitchesModel(isSwitchAOn: true)
        var heard: [String] = []
        let token = model.isSwitchBOn.observe { _ in heard.append("B") }

        model.reset()

        #expect(heard.isEmpty)
        withExtendedLifetime(token) {}
    }

    @Test("each change leaving the model is traced before observers hear it")
    func tracesChanges() {
        let hops = Mutex<[String]>([])
        let model = SwitchesModel(
            tracer: HopTracer { hop in hops.withLock { $0.append(hop.description) } })
        let token = model.isSwitchAOn.observe { _ in hops.withLock { $0.append("observer") } }

        model.isSwitchAOn.value = true

        #expect(
            hops.withLock { $0 } == ["model → observation: isSwitchAOn changed to on", "observer"])
        withExtendedLifetime(token) {}
    }
}
