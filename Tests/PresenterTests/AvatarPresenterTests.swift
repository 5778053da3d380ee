import Foundation
import MVCModel
import MVCObservation
import MVCPresenter
import MVCPresenterTesting
import MVCStore
import Testing

extension Ideas {
    @MainActor
    @Suite("The avatar and contact list presenters")
    struct AvatarPresenterTests {
        private let ada = Self.address("ada@example.com")
        private let grace = Self.address("grace@example.com")

        private static func address(_ text: String) -> EmailAddress {
            do { return try EmailAddress(text) } catch { preconditionFailure("\(error)") }
        }

        private func drawable(_ address: EmailAddress) -> AvatarViewState.Status {
            let picture = SimulatedAvatarService.picture(for: address)
            return .loaded(
                .drawable(
                    width: picture.width,
                    height: picture.height,
                    pixels: picture.pixels.map {
                        .init(red: $0.red, green: $0.green, blue: $0.blue)
                    }
                )
            )
        }

        private func state(_ address: EmailAddress, _ status: AvatarViewState.Status)
            -> AvatarViewState
        {
            AvatarViewState(address: address.rawValue, status: status)
        }

        @Test("loading: not requested, loading, then the picture")
        func loadTimeline() async {
            let manager = ModelManager(service: SimulatedAvatarService())
            let presenter = AvatarPresenter(address: ada, manager: manager)
            let recorder = ViewStateRecorder(presenter)

            await presenter.load()

            #expect(
                recorder.timeline == [
                    state(ada, .notRequested), state(ada, .loading), state(ada, drawable(ada)),
                ])
        }

        @Test("a background load, step by step: loading at once, the picture when the fetch ends")
        func backgroundLoadSteps() async {
            let data = DataManager()
            let remote = RemoteConnectionManager(
                dataManager: data, service: SimulatedAvatarService())
            let manager = ModelManager(dataManager: data, remoteConnectionManager: remote)
            let store = PresenterTestStore(AvatarPresenter(address: ada, manager: manager))
            #expect(store.state == state(ada, .notRequested))

            store.send { $0.loadTapped() }
            store.expect { $0.status = .loading }
            await store.receive { $0.status = drawable(ada) }
            await store.finish()

            // Cached now: asking again publishes nothing and starts no fetch.
            store.send { $0.loadTapped() }
            await store.finish()
        }

        @Test("failure, then a retry that succeeds")
        func failureAndRetryTimeline() async {
            let service = SimulatedAvatarService(failureRate: 1)
            let manager = ModelManager(service: service)
            let presenter = AvatarPresenter(address: ada, manager: manager)
            let recorder = ViewStateRecorder(presenter)

            await presenter.load()
            await service.setFailureRate(0)
            await presenter.reload()

            #expect(
                recorder.timeline == [
                    state(ada, .notRequested),
                    state(ada, .loading),
                    state(
                        ada,
                        .failed(
                            message:
                                "cannot fetch simulated:ada@example.com: the simulated service failed on purpose (failure rate)"
                        )),
                    state(ada, .loading),
                    state(ada, drawable(ada)),
                ]
            )
        }

        @Test("an update for one address reaches only that address's presenter")
        func keyedRouting() async {
            let manager = ModelManager(service: SimulatedAvatarService())
            let adaPresenter = AvatarPresenter(address: ada, manager: manager)
            let gracePresenter = AvatarPresenter(address: grace, manager: manager)
            let adaRecorder = ViewStateRecorder(adaPresenter)
            let graceRecorder = ViewStateRecorder(gracePresenter)

            await gracePresenter.load()

            #expect(adaRecorder.timeline == [state(ada, .notRequested)])
            #expect(graceRecorder.timeline.count == 3)
            #expect(manager.updates.subscriberCount(for: .avatar(ada)) == 1)
        }

        @Test("an avatar already cached shows at once")
        func cachedAtStart() async {
            let manager = ModelManager(service: SimulatedAvatarService())
            await manager.loadAvatar(for: ada)

            let presenter = AvatarPresenter(address: ada, manager: manager)

            #expect(presenter.viewState == state(ada, drawable(ada)))
        }

        @Test("formats other than PPM are shown by type and size")
        func undrawable() {
            let png = Avatar(data: Data([0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0]))
            let data = DataManager()
            data.saveAvatar(png, for: ada)
            let manager = ModelManager(
                dataManager: data,
                remoteConnectionManager: RemoteConnectionManager(
                    dataManager: data, service: SimulatedAvatarService()))

            let presenter = AvatarPresenter(address: ada, manager: manager)

            #expect(presenter.viewState.status == .loaded(.undrawable(format: "PNG", byteCount: 8)))
        }

        @Test("the contact list shows each contact's row, loads all at once, and adds contacts")
        func contactList() async {
            let manager = ModelManager(
                contacts: [
                    Contact(name: "Ada", address: ada), Contact(name: "Grace", address: grace),
                ],
                service: SimulatedAvatarService()
            )
            let list = ContactListPresenter(manager: manager)

            await list.loadAll()
            #expect(list.addTapped(address: "Alan@Example.com", name: " Alan "))
            #expect(!list.addTapped(address: "not an address", name: "Nobody"))
            #expect(
                list.viewState.lastError
                    == "an e-mail address needs an @ between the name and the domain")
            #expect(!list.addTapped(address: "ada@example.com", name: "Ada again"))

            #expect(list.viewState.rows.map(\.name) == ["Ada", "Grace", "Alan"])
            #expect(list.viewState.rows[0].avatar == state(ada, drawable(ada)))
            #expect(
                list.viewState.rows[2].avatar
                    == state(Self.address("Alan@Example.com"), .notRequested))
            #expect(
                !list.addTapped(address: "ALAN@example.COM", name: "Alan again"),
                "one mailbox, whatever its case, is one contact")
            #expect(list.viewState.lastError == "ALAN@example.COM is already a contact")
            #expect(manager.statistics.requests == 2)
        }

        @Test("a row follows its avatar presenter, one row at a time")
        func rowFollowsAvatar() async {
            let manager = ModelManager(
                contacts: [
                    Contact(name: "Ada", address: ada), Contact(name: "Grace", address: grace),
                ],
                service: SimulatedAvatarService()
            )
            let list = ContactListPresenter(manager: manager)
            let recorder = ViewStateRecorder(list)

            await list.avatarPresenter(at: 1)?.load()

            #expect(
                recorder.timeline.map { $0.rows[0].avatar.status } == [
                    .notRequested, .notRequested, .notRequested,
                ])
            #expect(
                recorder.timeline.map { $0.rows[1].avatar.status } == [
                    .notRequested, .loading, drawable(grace),
                ])
            #expect(list.avatarPresenter(at: 5) == nil)
            #expect(list.viewState.lastError == "there is no contact at row 6: the list has 2")
        }

        @Test("presenters, list and managers are deallocated once released")
        func nothingLeaks() async {
            weak var weakManager: ModelManager?
            weak var weakList: ContactListPresenter?
            weak var weakAvatar: AvatarPresenter?
            do {
                let manager = ModelManager(
                    contacts: [Contact(name: "Ada", address: ada)],
                    service: SimulatedAvatarService())
                let list = ContactListPresenter(manager: manager)
                await list.loadAll()
                weakManager = manager
                weakList = list
                weakAvatar = list.avatarPresenters.first
            }

            #expect(weakList == nil)
            #expect(weakAvatar == nil)
            #expect(weakManager == nil)
        }
    }
}
