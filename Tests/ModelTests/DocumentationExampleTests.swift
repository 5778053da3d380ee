import MVCElements
import MVCModel
import MVCObservation
import Testing

/// The example of the MVCModel documentation article, compiled and run so it cannot rot.
@MainActor
@Suite("The documentation's example")
struct ModelDocumentationExampleTests {
    @Test("the MVCModel overview example observes a switch")
    func overviewExample() {
        // BEGIN MVCModel example
        let model = SwitchesModel()
        let token = model.isSwitchAOn.observe { change in
            print("switch A is \(change.newValue == true ? "on" : "off")")
        }
        model.isSwitchAOn.value = true
        // END MVCModel example

        #expect(model.isSwitchAOn.value)
        withExtendedLifetime(token) {}
    }

    @Test("the ElementDraft example trims what was typed and keeps the other fields")
    func draftExample() throws {
        let louvre = Attraction(name: "Louvre", notes: "Mona Lisa")
        // BEGIN ElementDraft example
        var draft = ElementDraft(editing: louvre)
        draft.setText("  Musée du Louvre ", ofField: "name")
        let edited = try draft.validated().get()  // name "Musée du Louvre", notes as they were
        // END ElementDraft example

        #expect(edited == Attraction(id: louvre.id, name: "Musée du Louvre", notes: "Mona Lisa"))
    }
}
