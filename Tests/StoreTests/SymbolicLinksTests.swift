import Foundation
import MVCListStore
import Testing

@Suite("Following symbolic links to a list's file, as both file adapters do")
struct SymbolicLinksTests {
    private let folder: URL

    init() throws {
        folder = URL(
            fileURLWithPath: try FileManager.default.url(
                for: .itemReplacementDirectory, in: .userDomainMask,
                appropriateFor: FileManager.default.temporaryDirectory, create: true
            ).path
        ).resolvingSymlinksInPath()
    }

    private func link(_ name: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(
            atPath: folder.appending(path: name).path, withDestinationPath: target)
    }

    @Test(
        "a chain of links leads to the file, and a link to a file not made yet to where it will be")
    func chain() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("[]".utf8).write(to: folder.appending(path: "list.json"))
        try link("b", to: "list.json")
        try link("a", to: folder.appending(path: "b").path)
        try link("later", to: "not-yet.json")

        #expect(
            SymbolicLinks.target(of: folder.appending(path: "a"), hops: 5)?.path
                == folder.appending(path: "list.json").path)
        #expect(
            SymbolicLinks.target(of: folder.appending(path: "later"), hops: 5)?.path
                == folder.appending(path: "not-yet.json").path)
    }

    @Test(
        "a .. after a link to a folder leads out of the folder it points to, as the system has it")
    func dotDotAfterALink() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let sub = folder.appending(path: "real/sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try Data("[]".utf8).write(to: folder.appending(path: "real/list.json"))
        try link("into", to: sub.path)
        try link("list", to: "into/../list.json")

        #expect(
            SymbolicLinks.target(of: folder.appending(path: "list"), hops: 5)?.path
                == folder.appending(path: "real/list.json").path)
    }

    @Test("a loop, or a chain longer than the engine follows, leads nowhere; one as long does")
    func limits() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try link("x", to: "y")
        try link("y", to: "x")
        #expect(SymbolicLinks.target(of: folder.appending(path: "x"), hops: 40) == nil)

        try Data("[]".utf8).write(to: folder.appending(path: "end.json"))
        try link("l3", to: "end.json")
        try link("l2", to: "l3")
        try link("l1", to: "l2")
        #expect(SymbolicLinks.target(of: folder.appending(path: "l1"), hops: 3) != nil)
        #expect(SymbolicLinks.target(of: folder.appending(path: "l1"), hops: 2) == nil)
    }
}
