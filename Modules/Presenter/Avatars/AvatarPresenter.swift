public import MVCModel
public import MVCObservation
public import MVCStore
public import MVCTracing

/// Presents the avatar of one address, following only that address's updates.
///
/// It subscribes to the key `ModelUpdate.Key.avatar` of its address, so an update for
/// another address never reaches it: no filtering by hand, no typo in a field name to get wrong.
@MainActor
public final class AvatarPresenter: ViewStatePresenter {
    /// The address presented.
    public let address: EmailAddress
    private let manager: any ModelManaging
    private let tracer: HopTracer
    private let state: ObservableProperty<AvatarViewState>
    private var token: ObservationToken?

    /// Creates a presenter for the avatar of `address`.
    ///
    /// - Parameters:
    ///   - address: Whose avatar to present.
    ///   - manager: The model facade to ask and to follow.
    ///   - tracer: Told each hop the presenter receives.
    public init(address: EmailAddress, manager: any ModelManaging, tracer: HopTracer = .disabled) {
        self.address = address
        self.manager = manager
        self.tracer = tracer
        let status: AvatarViewState.Status =
            manager.avatar(for: address).map { .loaded(Self.picture($0)) } ?? .notRequested
        self.state = ObservableProperty(AvatarViewState(address: address.rawValue, status: status))
        token = manager.updates.subscribe(to: .avatar(address)) { [weak self] update in
            self?.modelUpdated(update)
        }
    }

    /// What the avatar shows now.
    public var viewState: AvatarViewState { state.value }

    /// Calls `handler` with each new view-state, until the token is released.
    public func observeViewState(_ handler: @escaping (AvatarViewState) -> Void) -> ObservationToken
    {
        state.observe(options: .new) { change in
            if let newState = change.newValue { handler(newState) }
        }
    }

    // MARK: Intents

    /// The user asked for the avatar; it loads in the background.
    public func loadTapped() {
        tracer.record(from: .presenter, to: .facade, "requestAvatar(for: \(address))")
        manager.requestAvatar(for: address)
    }

    /// The user asked for the avatar and waits for it (scripts wait for each command).
    public func load() async {
        tracer.record(from: .presenter, to: .facade, "loadAvatar(for: \(address))")
        await manager.loadAvatar(for: address)
    }

    /// The user asked to load the avatar again, even if it is cached (a retry).
    public func reload() async {
        tracer.record(from: .presenter, to: .facade, "reloadAvatar(for: \(address))")
        await manager.reloadAvatar(for: address)
    }

    /// The user gave up on a request in flight.
    public func cancelTapped() {
        tracer.record(from: .presenter, to: .facade, "cancelAvatarRequest(for: \(address))")
        manager.cancelAvatarRequest(for: address)
    }

    // MARK: Following the model

    private func modelUpdated(_ update: ModelUpdate) {
        tracer.record(from: .observation, to: .presenter, "modelUpdated(\(update))")
        let status: AvatarViewState.Status
        switch update {
        case .avatarLoading:
            status = .loading
        case .avatarAlreadyLoaded:
            return
        case .avatarLoaded:
            guard let avatar = manager.avatar(for: address) else { return }
            status = .loaded(Self.picture(avatar))
        case .avatarFailed(_, let message):
            status = .failed(message: message)
        case .avatarCancelled:
            status = manager.avatar(for: address).map { .loaded(Self.picture($0)) } ?? .notRequested
        case .contactsChanged:
            return
        }
        state.update { $0.status = status }
    }

    /// What a view can do with `avatar`: draw it, if it is a readable netpbm picture.
    static func picture(_ avatar: Avatar) -> PictureViewState {
        switch avatar.picture {
        case .success(let picture):
            .drawable(
                width: picture.width,
                height: picture.height,
                pixels: picture.pixels.map { .init(red: $0.red, green: $0.green, blue: $0.blue) }
            )
        case .failure(let error):
            .undrawable(format: "PPM (\(error))", byteCount: avatar.data.count)
        case nil:
            .undrawable(format: avatar.format.description, byteCount: avatar.data.count)
        }
    }

    // MARK: Work a test waits for

    /// Whether a fetch is running; fetches are the facade's, shared by every avatar's presenter.
    public var hasPendingWork: Bool { manager.runningFetchCount > 0 }

    /// Returns once no fetch is running and every result has been published.
    public func pendingWorkFinished() async {
        await manager.fetchesFinished()
    }
}
