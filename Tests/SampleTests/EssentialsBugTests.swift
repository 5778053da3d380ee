// The essentials are executables: a test reaches their types only through `@testable import`,
// which an optimized build does not allow (CI's release run under the address sanitizer). These
// tests run in every debug build; the essentials' output is compared in every build.
#if DEBUG
    import Testing

    @testable import attractions_essentials
    @testable import avatars_essentials
    @testable import switches_essentials

    // Each post's bug, tried against its essentials program: each test does what made the post fail.

    /// An observer of a type the post never planned for: it has a method of its own for the switch.
    @MainActor private final class SwitchLog {
        var heard: [Bool] = []
        func switchAChanged(_ isOn: Bool) { heard.append(isOn) }
    }

    @Suite("The posts' bugs cannot happen in the essentials")
    @MainActor
    struct EssentialsBugTests {
        @Test(
            "post 000: observers of different types each hear their own method, and a gone one none"
        )
        func eachObserverItsOwnMethod() {
            let model = switches_essentials.SwitchesModel()
            let presenter = SwitchesPresenter(model: model)
            var log: SwitchLog? = SwitchLog()
            if let log { model.isSwitchAOn.observe(log, action: SwitchLog.switchAChanged) }
            let keptLog = log

            model.isSwitchAOn.value = true
            log = nil
            model.isSwitchAOn.value = false

            #expect(keptLog?.heard == [true, false])
            #expect(presenter.viewState.value.label == "Switch A turned off.")
            #expect(presenter.viewState.value.isSwitchAOn == false)
        }

        @Test("post 000: an observer that is gone is never called, and keeps nothing alive")
        func goneObserver() {
            let model = switches_essentials.SwitchesModel()
            weak var gone: SwitchLog?
            do {
                let log = SwitchLog()
                model.isSwitchAOn.observe(log, action: SwitchLog.switchAChanged)
                gone = log
            }
            #expect(gone == nil)
            model.isSwitchAOn.value = true  // would reach a released object if it were held unowned
        }

        @Test("post 000: a presenter and its model go away when nothing else holds them")
        func switchesLeakNothing() {
            weak var gonePresenter: SwitchesPresenter?
            weak var goneModel: switches_essentials.SwitchesModel?
            do {
                let model = switches_essentials.SwitchesModel()
                let presenter = SwitchesPresenter(model: model)
                presenter.buttonTapped("A")
                (gonePresenter, goneModel) = (presenter, model)
            }
            #expect(gonePresenter == nil)
            #expect(goneModel == nil)
        }

        @Test(
            "post 001: a row hears only its own address, and a cached avatar is not asked for again"
        )
        func ownKeyAndCache() async {
            let data = DataManager(contacts: [("Ada", "ada@x.org"), ("Grace", "grace@x.org")])
            let manager = ModelManager(dataManager: data)
            let list = ContactListPresenter(manager: manager)
            var heardByAda = 0
            manager.subscribe(to: .avatarLoaded("ada@x.org")) { heardByAda += 1 }

            await list.rows[1].loadTapped()
            #expect(heardByAda == 0)
            #expect(list.rows[0].viewState.picture == nil)
            #expect(list.rows[1].viewState.picture == "8×8 PPM")

            await list.rows[0].loadTapped()
            await list.rows[0].loadTapped()
            // Each fetch is saved and published: one update for two loads means one fetch.
            #expect(heardByAda == 1)
        }

        @Test(
            "post 001: the facade, its managers and the presenters go away when the screen lets go")
        func nothingLeaks() async {
            weak var facade: ModelManager?
            weak var row: AvatarPresenter?
            do {
                let manager = ModelManager(
                    dataManager: DataManager(contacts: [("Ada", "ada@x.org")]))
                let list = ContactListPresenter(manager: manager)
                await list.rows[0].loadTapped()
                facade = manager
                row = list.rows[0]
            }
            #expect(facade == nil)
            #expect(row == nil)
        }

        /// A delegate that writes down what its editor told it.
        @MainActor private final class RecordingDelegate: AttractionEditorDelegate {
            var calls: [String] = []
            func save(_ attraction: Attraction) throws { calls.append("save \(attraction.name)") }
            func cancel() { calls.append("cancel") }
        }

        @Test("post 004: cancel reaches the delegate, as save does")
        func cancelIsDelivered() throws {
            let delegate = RecordingDelegate()
            let editor = AttractionEditor(draft: Attraction(name: "Louvre"), delegate: delegate)

            editor.cancelTapped()
            try editor.saveTapped()

            #expect(delegate.calls == ["cancel", "save Louvre"])
        }
    }
#endif
