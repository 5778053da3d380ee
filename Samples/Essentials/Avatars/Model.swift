// Post 001, the essentials: a facade over sub-managers, and typed updates heard one by one.
// The idea: screens talk to one ModelManager, which hands each call to the sub-manager whose
// protocol declares it (DataManager keeps contacts and avatars; RemoteConnectionManager fetches
// only what is not cached); every change goes out as a ModelUpdate that a screen subscribes to.
// The post's bugs: its facade looks selectors up at run time, so a call no protocol declares
// silently returns nil; its screen filters every update by hand and compares a typo,
// `update.emailAddres`. Here forwarding is written once per protocol and checked by the compiler,
// and a screen subscribes to one typed update. Production: Modules/Store/Avatars/ (coalescing,
// cancelling, failures), Modules/Observation/Channel/ (any thread), Modules/Presenter/Avatars/.
/// A change in the model: a screen subscribes to the changes it shows, by value.
enum ModelUpdate: Hashable {
    case avatarLoaded(String)
    case contactsChanged
}
typealias Contact = (name: String, address: String)
struct Refusal: Error, CustomStringConvertible { var description: String }
typealias Avatar = String  // as much of a picture as the screen shows: "8×8 PPM"
@MainActor protocol DataManagerOperations: AnyObject {
    var contacts: [Contact] { get }
    func addContact(_ contact: Contact) throws(Refusal)
    func avatar(for address: String) -> Avatar?
    func subscribe(to update: ModelUpdate, _ handler: @escaping () -> Void)
}
@MainActor protocol RemoteConnectionManagerOperations: AnyObject {
    func loadAvatar(for address: String) async
}

/// Keeps contacts and cached avatars, and tells each change to the subscribers of that change.
@MainActor final class DataManager: DataManagerOperations {
    private(set) var contacts: [Contact]
    private var avatars: [String: Avatar] = [:]
    private var subscribers: [ModelUpdate: [() -> Void]] = [:]

    init(contacts: [Contact]) { self.contacts = contacts }
    func addContact(_ contact: Contact) throws(Refusal) {
        guard contact.address.contains("@") else {
            throw Refusal(
                description: "an e-mail address needs an @ between the name and the domain")
        }
        guard !contacts.contains(where: { $0.address == contact.address }) else {
            throw Refusal(description: "\(contact.address) is already a contact")
        }
        contacts.append(contact)
        publish(.contactsChanged)
    }
    func avatar(for address: String) -> Avatar? { avatars[address] }
    func saveAvatar(_ avatar: Avatar, for address: String) {
        avatars[address] = avatar
        publish(.avatarLoaded(address))
    }
    func subscribe(to update: ModelUpdate, _ handler: @escaping () -> Void) {
        subscribers[update, default: []].append(handler)
    }
    private func publish(_ update: ModelUpdate) {
        for handler in subscribers[update, default: []] { handler() }
    }
}

/// Fetches the avatars the data manager does not have from a server (a stand-in here).
@MainActor final class RemoteConnectionManager: RemoteConnectionManagerOperations {
    private let data: DataManager
    init(data: DataManager) { self.data = data }
    func loadAvatar(for address: String) async {
        if data.avatar(for: address) != nil { return }  // cached: no request
        data.saveAvatar(await Self.server(address), for: address)
    }
    nonisolated private static func server(_ address: String) async -> Avatar { "8×8 PPM" }
}

/// The data manager's operations, forwarded: written once, for every conformer.
@MainActor protocol DataManagerForwarding: DataManagerOperations {
    var dataManager: any DataManagerOperations { get }
}
extension DataManagerForwarding {
    var contacts: [Contact] { dataManager.contacts }
    func addContact(_ contact: Contact) throws(Refusal) { try dataManager.addContact(contact) }
    func avatar(for address: String) -> Avatar? { dataManager.avatar(for: address) }
    func subscribe(to update: ModelUpdate, _ handler: @escaping () -> Void) {
        dataManager.subscribe(to: update, handler)
    }
}

/// The remote connection manager's operations, forwarded: written once, for every conformer.
@MainActor protocol RemoteConnectionManagerForwarding: RemoteConnectionManagerOperations {
    var remoteConnectionManager: any RemoteConnectionManagerOperations { get }
}
extension RemoteConnectionManagerForwarding {
    func loadAvatar(for address: String) async {
        await remoteConnectionManager.loadAvatar(for: address)
    }
}

/// The facade: it only names its parts; the two protocols give it every operation.
@MainActor final class ModelManager: DataManagerForwarding, RemoteConnectionManagerForwarding {
    let dataManager: any DataManagerOperations
    let remoteConnectionManager: any RemoteConnectionManagerOperations
    init(dataManager: DataManager) {
        self.dataManager = dataManager
        remoteConnectionManager = RemoteConnectionManager(data: dataManager)
    }
}
