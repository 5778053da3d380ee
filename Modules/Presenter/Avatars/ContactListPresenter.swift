import MVCElements
import MVCModel
public import MVCObservation
public import MVCStore
public import MVCTracing

/// Presents the contacts, each row with its avatar, through the model facade.
///
/// Each row has an ``AvatarPresenter`` that follows its own address; the list copies a row's
/// avatar into its view-state when that presenter changes, so one avatar landing updates one row.
@MainActor
public final class ContactListPresenter: ViewStatePresenter {
    private let manager: any ModelManaging
    private let tracer: HopTracer
    private let state: ObservableProperty<ContactListViewState>
    /// One avatar presenter per contact, in the list's order.
    public private(set) var avatarPresenters: [AvatarPresenter] = []
    private var avatarTokens: [ObservationToken] = []
    private var contactsToken: ObservationToken?

    /// Creates a presenter for the contacts of `manager`.
    ///
    /// - Parameters:
    ///   - manager: The model facade.
    ///   - tracer: Told each hop the presenters make or receive.
    public init(manager: any ModelManaging, tracer: HopTracer = .disabled) {
        self.manager = manager
        self.tracer = tracer
        self.state = ObservableProperty(ContactListViewState(rows: []))
        contactsToken = manager.updates.subscribe(to: .contacts) { [weak self] update in
            self?.tracer.record(
                from: .observation, to: .presenter, "contactsChanged(), for \(update)")
            self?.contactsChanged()
        }
        contactsChanged()
    }

    /// What the list shows now.
    public var viewState: ContactListViewState { state.value }

    /// Calls `handler` with each new view-state, until the token is released.
    public func observeViewState(_ handler: @escaping (ContactListViewState) -> Void)
        -> ObservationToken
    {
        state.observe(options: .new) { change in
            if let newState = change.newValue { handler(newState) }
        }
    }

    /// Whether a fetch is running for any row.
    public var hasPendingWork: Bool { manager.runningFetchCount > 0 }

    /// Returns once no fetch is running and every result has been published.
    public func pendingWorkFinished() async {
        await manager.fetchesFinished()
    }

    // MARK: Intents (rows count from 0; screens show them from 1)

    /// The user added a contact.
    ///
    /// - Returns: Whether it was added; if not, the view-state's `lastError` says why.
    @discardableResult
    public func addTapped(address: String, name: String) -> Bool {
        let trimmedName = name.trimmedOfWhitespace
        guard !trimmedName.isEmpty else { return fail("a contact needs a name") }
        do {
            let contact = Contact(name: trimmedName, address: try EmailAddress(address))
            tracer.record(from: .presenter, to: .facade, "addContact(\(contact.address))")
            try manager.addContact(contact)
            return true
        } catch let error as EmailAddressError {
            return fail(error.description)
        } catch {
            return fail(String(describing: error))
        }
    }

    /// The avatar presenter of the row at `row`, or `nil` (with the error shown) if there is none.
    public func avatarPresenter(at row: Int) -> AvatarPresenter? {
        guard avatarPresenters.indices.contains(row) else {
            _ = fail(
                avatarPresenters.isEmpty
                    ? "there is no contact at row \(row + 1): the list is empty"
                    : "there is no contact at row \(row + 1): the list has \(avatarPresenters.count)"
            )
            return nil
        }
        clearError()
        return avatarPresenters[row]
    }

    /// Loads every avatar not yet loaded, all at once, and waits for them.
    public func loadAll() async {
        clearError()
        await withTaskGroup(of: Void.self) { group in
            for presenter in avatarPresenters {
                group.addTask { await presenter.load() }
            }
        }
    }

    /// Starts loading every avatar in the background.
    public func loadAllTapped() {
        clearError()
        for presenter in avatarPresenters { presenter.loadTapped() }
    }

    // MARK: Following the model

    private func contactsChanged() {
        let contacts = manager.contacts
        var presenters: [AvatarPresenter] = []
        var tokens: [ObservationToken] = []
        for (index, contact) in contacts.enumerated() {
            let presenter =
                avatarPresenters.first { $0.address == contact.address }
                ?? AvatarPresenter(address: contact.address, manager: manager, tracer: tracer)
            presenters.append(presenter)
            tokens.append(
                presenter.observeViewState { [weak self] avatar in
                    self?.avatarChanged(avatar, row: index)
                }
            )
        }
        avatarPresenters = presenters
        avatarTokens = tokens
        state.update { state in
            state.rows = zip(contacts, presenters).map {
                ContactRowViewState(name: $0.name, avatar: $1.viewState)
            }
            state.lastError = nil
        }
    }

    private func avatarChanged(_ avatar: AvatarViewState, row: Int) {
        guard state.value.rows.indices.contains(row) else { return }
        state.update { $0.rows[row].avatar = avatar }
    }

    private func fail(_ message: String) -> Bool {
        state.update { $0.lastError = message }
        return false
    }

    private func clearError() {
        if state.value.lastError != nil { state.update { $0.lastError = nil } }
    }
}
