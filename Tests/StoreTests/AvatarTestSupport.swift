import Foundation
import MVCModel
import MVCObservation
import MVCStore

/// A service whose calls wait at a gate until the test opens it, and that counts the calls.
actor GatedAvatarService: AvatarService {
    private(set) var callCount = 0
    private var failures: [EmailAddress: AvatarServiceError] = [:]
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var isOpen: Bool

    init(isOpen: Bool = false) {
        self.isOpen = isOpen
    }

    func avatar(for address: EmailAddress) async throws(AvatarServiceError) -> Avatar {
        callCount += 1
        if !isOpen { await withCheckedContinuation { waiting.append($0) } }
        if Task.isCancelled { throw .cancelled }
        if let failure = failures[address] { throw failure }
        return Avatar(data: SimulatedAvatarService.picture(for: address).netpbmData)
    }

    /// Lets every waiting call, and every later one, through.
    func open() {
        isOpen = true
        for call in waiting { call.resume() }
        waiting.removeAll()
    }

    /// Makes calls for `address` fail with `error`, or succeed again with `nil`.
    func setFailure(_ error: AvatarServiceError?, for address: EmailAddress) {
        failures[address] = error
    }

    /// Waits until at least `count` calls have arrived.
    func waitForCalls(_ count: Int) async {
        while callCount < count { await Task.yield() }
    }
}

/// Records the updates a channel delivers.
@MainActor
final class UpdateLog {
    private(set) var updates: [ModelUpdate] = []
    private var token: ObservationToken?

    init(_ channel: UpdateSubscriptions<ModelUpdate>, key: ModelUpdate.Key? = nil) {
        if let key {
            token = channel.subscribe(to: key) { [weak self] in self?.updates.append($0) }
        } else {
            token = channel.subscribeToAll { [weak self] in self?.updates.append($0) }
        }
    }
}
