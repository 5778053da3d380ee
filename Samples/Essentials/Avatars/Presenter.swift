// The presenters: a row hears only its own address's update; the list, only the contacts'.

struct AvatarViewState: Equatable {
    var name: String
    var address: String
    var picture: String?  // "8×8 PPM" once loaded
}
@MainActor final class AvatarPresenter {
    private let manager: ModelManager
    private(set) var viewState: AvatarViewState
    init(contact: Contact, manager: ModelManager) {
        self.manager = manager
        viewState = AvatarViewState(name: contact.name, address: contact.address)
        manager.subscribe(to: .avatarLoaded(contact.address)) { [weak self] in
            guard let self else { return }
            viewState.picture = self.manager.avatar(for: viewState.address)  // self.: no cycle
        }
    }
    func loadTapped() async { await manager.loadAvatar(for: viewState.address) }
}
@MainActor final class ContactListPresenter {
    private let manager: ModelManager
    private(set) var rows: [AvatarPresenter] = []
    init(manager: ModelManager) {
        self.manager = manager
        manager.subscribe(to: .contactsChanged) { [weak self] in self?.contactsChanged() }
        contactsChanged()
    }
    func addTapped(address: String, name: String) throws(Refusal) {
        try manager.addContact((name, address))
    }
    private func contactsChanged() {
        rows = manager.contacts.map { contact in
            rows.first { $0.viewState.address == contact.address }
                ?? AvatarPresenter(contact: contact, manager: manager)
        }
    }
}
