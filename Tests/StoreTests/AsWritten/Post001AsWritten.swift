import MVCModel
import MVCObservation
import MVCStore
import Testing

// Post 001 (a public gist following up Macoscope's post on MVC layer interaction, on
// `ModelManager`) as written, rendered in Swift by this project: the facade finds at run time a
// sub-manager that answers a message, and every screen hears every update and filters it by a
// field read by name. The package's version is `ModelManager` with `DataManagerForwarding` and
// `RemoteConnectionManagerForwarding` (Modules/Store/Avatars), and `UpdateChannel`'s keys.

/// A sub-manager as the post has it: a table of the messages it answers.
private final class SubManagerAsWritten {
    let answers: [String: (String) -> String?]

    init(answers: [String: (String) -> String?]) {
        self.answers = answers
    }
}

/// The post's facade: it asks each sub-manager whether it answers a message, and forwards it.
private final class ModelManagerAsWritten {
    let subManagers: [SubManagerAsWritten]
    /// Every screen's handler hears every update.
    var listeners: [([String: String]) -> Void] = []

    init(subManagers: [SubManagerAsWritten]) {
        self.subManagers = subManagers
    }

    /// Forwards `message` to the first sub-manager that answers it; nobody answering is `nil`,
    /// the same as an answer of nothing.
    func send(_ message: String, _ argument: String) -> String? {
        for manager in subManagers {
            if let answer = manager.answers[message] { return answer(argument) }
        }
        return nil
    }

    func post(_ update: [String: String]) {
        for listener in listeners { listener(update) }
    }
}

extension Ideas {
    @Suite("Post 001 as written, and what the package does instead")
    @MainActor
    struct Post001AsWrittenTests {
        private let ada = "ada@example.com"

        private func facade() -> ModelManagerAsWritten {
            let data = SubManagerAsWritten(answers: [
                "avatarForEmailAddress:": { $0 == "ada@example.com" ? "ada.ppm" : nil }
            ])
            return ModelManagerAsWritten(subManagers: [data])
        }

        @Test(
            "as written: a misspelt message is answered by nobody, and reads as an address without an avatar"
        )
        func misspeltMessageAnswersNil() {
            let manager = facade()

            #expect(manager.send("avatarForEmailAddress:", ada) == "ada.ppm")
            // One letter short: no sub-manager answers, and the caller cannot tell.
            #expect(manager.send("avatarForEmailAdress:", ada) == nil)
        }

        @Test("as written: a screen that filters every update by a misspelt field never updates")
        func misspeltFieldNeverMatches() {
            let manager = facade()
            var rowUpdates = 0
            manager.listeners.append { update in
                if update["emailAddres"] == "ada@example.com" { rowUpdates += 1 }
            }

            manager.post(["kind": "avatarLoaded", "emailAddress": "ada@example.com"])

            #expect(rowUpdates == 0)
        }

        @Test(
            "the package: forwarding is declared by protocols and updates are keyed, so neither slip compiles"
        )
        func checkedForwardingAndKeys() async throws {
            let address = try EmailAddress("ada@example.com")
            let manager = ModelManager(
                contacts: [Contact(name: "Ada", address: address)],
                service: SimulatedAvatarService())
            var heard: [ModelUpdate] = []
            let token = manager.updates.subscribe(to: .avatar(address)) { heard.append($0) }

            // `manager.avatarFor(address)` or `.avatar(adress)` would not compile.
            await manager.loadAvatar(for: address)

            #expect(manager.avatar(for: address) != nil)
            #expect(heard.contains(.avatarLoaded(address)))
            withExtendedLifetime(token) {}
        }
    }
}
