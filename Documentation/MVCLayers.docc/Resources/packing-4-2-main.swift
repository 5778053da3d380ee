import Foundation
import MVCPersistence
import MVCTracing
import PackingCore

// The View: reads commands, sends intents, draws the view-state. Usage:
//   packing [--trace] [--file PATH]      commands: add <name>, pack <row>, undo, quit
let arguments = CommandLine.arguments.dropFirst()
let tracer = arguments.contains("--trace") ? HopTracer { print("  trace: \($0)") } : .disabled
var path = "packing.json"
if let flag = arguments.firstIndex(of: "--file"), flag + 1 < arguments.endIndex {
    path = arguments[flag + 1]
}
let file = PackingFile.file(at: URL(fileURLWithPath: path))

let snapshot: DocumentSnapshot<[Item]>
do {
    snapshot = try await file.readSnapshot()
} catch {
    print("error: \(error)")
    exit(1)
}
// Another process may save the same file: a save merges by id instead of overwriting it.
let saver = CoalescingSaver(file: file, snapshot: snapshot, tracer: tracer) { base, ours, theirs in
    let baseIDs = Set((base ?? []).map(\.id))
    let ourIDs = Set(ours.map(\.id))
    let addedByThem = theirs.filter { !baseIDs.contains($0.id) && !ourIDs.contains($0.id) }
    return MergeResult(document: ours + addedByThem)
}
let list = PackingList(items: snapshot.document ?? [])
list.onSave = { saver.documentChanged($0) }
let presenter = PackingListPresenter(list: list)

@MainActor
func draw() {
    let state = presenter.viewState
    for (index, row) in state.rows.enumerated() {
        print("\(index + 1). [\(row.isPacked ? "x" : " ")] \(row.name)")
    }
    print("\(state.itemsLeft) left to pack · \(state.undoTitle)")
    if let error = state.error { print("error: \(error)") }
}

draw()
while let line = readLine() {
    let words = line.split(separator: " ", maxSplits: 1).map(String.init)
    tracer.record(from: .view, to: .presenter, line)
    switch (words.first, words.count > 1 ? words[1] : "") {
    case ("add", let name): presenter.addTapped(name: name)
    case ("pack", let row): presenter.packTapped(row: Int(row) ?? 0)
    case ("undo", _): presenter.undoTapped()
    case ("quit", _): break
    default: print("error: unknown command '\(line)'")
    }
    if words.first == "quit" { break }
    draw()
}
try? await saver.flush()
