// Post 004, the essentials: an editor saves through a delegate, not knowing if it creates or edits.
// The idea: the editor edits a draft and calls its delegate's save (or cancel); one delegate adds
// to the store, another replaces the original; the list screen picks which. The post's bug:
// cancel is optional, and the check asks for `cancel:` (a colon) while the protocol declares
// `cancel`, so cancel is silently never delivered. Here both requirements are required with no
// default: every delegate writes each, the editor calls each directly, a misspelt one does not
// compile. Production does the same with more: Modules/Delegates/, Modules/Presenter/Attractions/
// and Modules/ListStore/ (undo, merging, other programs' edits), Adapters/ (locks, links, modes).
import Foundation

struct Attraction: Codable, Equatable, Identifiable {
    var id = UUID()
    var name: String
    var notes = ""
}

/// Why a command did nothing, in words a user can act on.
struct Refusal: Error, CustomStringConvertible { var description: String }

/// The list, kept in a JSON file: each edit is written at once to a new file renamed over the
/// old one (`.atomic`), and kept in memory only once it is on disk.
@MainActor final class AttractionStore {
    private(set) var attractions: [Attraction] = []
    private let file: URL
    init(file: URL) throws {
        self.file = file
        guard FileManager.default.fileExists(atPath: file.path) else { return }
        attractions = try JSONDecoder().decode([Attraction].self, from: Data(contentsOf: file))
        var ids = Set<UUID>()
        for attraction in attractions where !ids.insert(attraction.id).inserted {
            throw Refusal(description: "two attractions have the id \(attraction.id)")
        }
    }
    func add(_ attraction: Attraction) throws { try edit { $0.append(attraction) } }
    func remove(at index: Int) throws { try edit { $0.remove(at: try check(index)) } }
    func move(from source: Int, to destination: Int) throws {
        try edit { $0.insert($0.remove(at: try check(source)), at: try check(destination)) }
    }
    func replace(_ attraction: Attraction) throws {
        guard let index = attractions.firstIndex(where: { $0.id == attraction.id }) else {
            throw Refusal(description: "that attraction is no longer in the list")
        }
        try edit { $0[index] = attraction }
    }

    func check(_ index: Int) throws -> Int {
        guard !attractions.indices.contains(index) else { return index }
        let count = attractions.isEmpty ? "is empty" : "has \(attractions.count)"
        throw Refusal(
            description: "there is no attraction at position \(index + 1): the list \(count)")
    }
    private func edit(_ change: (inout [Attraction]) throws -> Void) throws {
        var edited = attractions
        try change(&edited)
        try JSONEncoder().encode(edited).write(to: file, options: .atomic)
        attractions = edited
    }
}
