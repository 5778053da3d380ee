import AttractionsStorage
import Foundation
import MVCDocumentStore
import MVCModel
import MVCObservation
import MVCStore

// What the tests of a document's saves share: a store on a JSON document that saves 20 ms after
// an edit, and the file's saves and names as the file holds them.

/// Opens the list at `url` as a program would, saving 20 ms after an edit.
@MainActor
func openDocument(_ url: URL, watch: Duration? = nil) async throws
    -> (store: AttractionStore, saver: CoalescingSaver<[Attraction]>)
{
    try await AttractionStore.open(
        at: url, delay: .milliseconds(20), watchInterval: watch, watching: watch != nil)
}

/// The saves the file at `url` names, newest first.
func fileSaves(in url: URL) throws -> [String] {
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
    return object?["saves"] as? [String] ?? []
}

/// The names of the attractions in the file at `url`, in order.
func attractionNames(in url: URL) async throws -> [String] {
    try await DocumentFile(url: url, format: .attractions).load()?.map(\.name) ?? []
}
