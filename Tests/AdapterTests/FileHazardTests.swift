import AttractionsStorage
import Foundation
import MVCDocumentStore
import MVCListStore
import MVCModel
import MVCObservation
import MVCSQLiteStore
import MVCStore
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What other programs do to a store's files while it runs.
///
/// They delete its lock, touch it, delete it, leave temporary files behind, hold its lock.
/// Nothing acknowledged may be lost, and nothing may run without bound.
@MainActor
@Suite("A store's files, as other programs treat them")
struct FileHazardTests {
    private func open(
        _ url: URL, watch: Duration? = nil, clock: any Clock<Duration> = ContinuousClock()
    ) async throws -> (store: AttractionStore, saver: CoalescingSaver<[Attraction]>) {
        try await AttractionStore.open(
            at: url, clock: clock, watchInterval: watch, watching: watch != nil)
    }

    /// The change time in `status` (named differently on Apple platforms).
    private static func changeTime(_ status: stat) -> timespec {
        #if canImport(Darwin)
            status.st_ctimespec
        #else
            status.st_ctim
        #endif
    }

    /// Whether a file written in `folder` gets a later change time than `status` within 10 s.
    private static func changeTimeMovesOn(past status: stat, in folder: TemporaryFolder)
        async throws -> Bool
    {
        let scratch = folder.file("clock")
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            try Data("tick".utf8).write(to: scratch)
            var now = stat()
            guard stat(scratch.path, &now) == 0 else { return false }
            if (Self.changeTime(now).tv_sec, Self.changeTime(now).tv_nsec) > (
                Self.changeTime(status).tv_sec, Self.changeTime(status).tv_nsec
            ) {
                return true
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        return false
    }

    @Test("a lock file deleted again and again never lets two saves through at once")
    func deletedLockFile() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let file = DocumentFile(url: url, format: .attractions)
        // A large list, so that each save holds the lock long enough for a deletion to fall in.
        // (Shorter under a sanitizer, where one save of 5,000 rows beside the whole suite took
        // longer than the other side waits for the lock, 10 s.)
        let rows = isUnderSanitizer ? 1_000 : 5_000
        try await file.overwrite(with: (0..<rows).map { Attraction(name: "row \($0)") })
        let first = try await open(url)
        let second = try await open(url)

        let stop = Atomic<Bool>(false)
        let whileHeld = Atomic<Int>(0)
        let lockPath = folder.file(".a.json.lock").path
        let deleter = Thread {
            while !stop.load(ordering: .relaxed) {
                // Counts the deletions that fall while a save holds the lock: the case under test.
                if let probe = FileHandle(forReadingAtPath: lockPath) {
                    if flock(probe.fileDescriptor, LOCK_EX | LOCK_NB) != 0 {
                        whileHeld.add(1, ordering: .relaxed)
                    }
                    try? probe.close()
                }
                unlink(lockPath)
                usleep(2_000)
            }
        }
        deleter.start()
        defer { stop.store(true, ordering: .relaxed) }

        func addTen(
            to side: (store: AttractionStore, saver: CoalescingSaver<[Attraction]>), _ name: String
        )
            async throws
        {
            for index in 1...10 {
                try side.store.add(Attraction(name: "\(name) \(index)"))
                try await side.saver.flush()
            }
        }
        async let firstAdds: Void = addTen(to: first, "first")
        async let secondAdds: Void = addTen(to: second, "second")
        _ = try await (firstAdds, secondAdds)
        stop.store(true, ordering: .relaxed)

        let names = Set(try #require(try await file.load()).map(\.name))
        let added = (1...10).flatMap { ["first \($0)", "second \($0)"] }
        #expect(added.filter { !names.contains($0) } == [], "adds lost")
        #expect(
            whileHeld.load(ordering: .relaxed) > 0, "no deletion fell while a save held the lock")
    }

    @Test("a check after the file was touched reads it once, then knows it unchanged")
    func touchedFileReadOnce() async throws {
        let folder = try TemporaryFolder()
        let file = DocumentFile(url: folder.file("a.json"), format: .attractions)
        try await file.overwrite(with: [Attraction(name: "Louvre")])
        let snapshot = try await file.readSnapshot()
        // `touch`, to a time two seconds on: a new timestamp, however coarse the file system's.
        var status = stat()
        #expect(stat(file.path, &status) == 0)
        #if canImport(Darwin)
            let modified = status.st_mtimespec
        #else
            let modified = status.st_mtim
        #endif
        let later = timeval(tv_sec: modified.tv_sec + 2, tv_usec: 0)
        #expect(utimes(file.path, [later, later]) == 0)

        guard case .unchanged(let touched, reread: true) = try await file.check(against: snapshot)
        else {
            Issue.record("a touched file should be read once and found unchanged")
            return
        }
        guard case .unchanged(_, reread: false) = try await file.check(against: touched) else {
            Issue.record("the touched file was read again: a watcher would re-read it for ever")
            return
        }
    }

    @Test("an in-place change of the same size, with the modification time put back, is seen")
    func sameSizeChangeSeen() async throws {
        let folder = try TemporaryFolder()
        let file = DocumentFile(url: folder.file("a.json"), format: .attractions)
        try await file.overwrite(with: [Attraction(name: "Louvre")])
        let snapshot = try await file.readSnapshot()
        var before = stat()
        #expect(stat(file.path, &before) == 0)
        // The change time cannot be set: wait until the file system's clock, which may be coarse,
        // has moved on (a file written now gets a later one).
        #expect(try await Self.changeTimeMovesOn(past: before, in: folder))

        // Another program rewrites one letter in place and sets the old modification time back.
        let bytes = try #require(try FileHandle(forReadingFrom: file.url).readToEnd())
        let changed = Data(
            String(decoding: bytes, as: UTF8.self).replacing("Louvre", with: "Lourve").utf8)
        let handle = try FileHandle(forWritingTo: file.url)
        try handle.write(contentsOf: changed)
        try handle.close()
        #if canImport(Darwin)
            var times = [before.st_atimespec, before.st_mtimespec]
        #else
            var times = [before.st_atim, before.st_mtim]
        #endif
        #expect(utimensat(AT_FDCWD, file.path, &times, 0) == 0)

        guard case .changed(let found) = try await file.check(against: snapshot) else {
            Issue.record("the change was not seen")
            return
        }
        #expect(found.document?.map(\.name) == ["Lourve"])
    }

    @Test("a store whose file is deleted says so, keeps its list, and the next edit writes it")
    func deletedFileIsTold() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let clock = TestClock()
        let opened = try await open(url, watch: .seconds(1), clock: clock)
        try opened.store.add(Attraction(name: "Louvre"))
        try await opened.saver.flush()
        await clock.waitForSleepers(1)

        try FileManager.default.removeItem(at: url)
        clock.advance(by: .seconds(1))
        // Only a guard against a hang: under a sanitizer on a loaded machine, 10 s was too short.
        _ = await eventually { opened.store.notice.value != nil }

        #expect(opened.store.notice.value?.message == SaverNotice.deleted)
        #expect(opened.store.elements.map(\.name) == ["Louvre"])
        #expect(!FileManager.default.fileExists(atPath: url.path), "recreated without an edit")
        try opened.store.add(Attraction(name: "Orsay"))
        try await opened.saver.flush()
        #expect(try await opened.saver.file.load()?.map(\.name) == ["Louvre", "Orsay"])
    }

    @Test("a save that finds its file deleted writes the list again and says so")
    func recreatedFileIsTold() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("a.json")
        let opened = try await open(url)
        try opened.store.add(Attraction(name: "Louvre"))
        try await opened.saver.flush()

        try FileManager.default.removeItem(at: url)
        try opened.store.add(Attraction(name: "Orsay"))
        try await opened.saver.flush()

        #expect(opened.store.notice.value?.message == SaverNotice.recreated)
        #expect(try await opened.saver.file.load()?.map(\.name) == ["Louvre", "Orsay"])
    }

    @Test(
        "a document with a name as long as the system allows is saved, lock and all",
        arguments: [214, 250, 255])
    func longNames(length: Int) async throws {
        let folder = try TemporaryFolder()
        // Two-byte letters, so a name cut short could be cut inside one.
        let letters = length - 5
        let name =
            String(repeating: "é", count: letters / 2) + String(repeating: "a", count: letters % 2)
            + ".json"
        #expect(name.utf8.count == length)
        let opened = try await open(folder.file(name))

        try opened.store.add(Attraction(name: "Louvre"))
        try await opened.saver.flush()

        #expect(try await opened.saver.file.load()?.map(\.name) == ["Louvre"])
        #expect(try folder.contents().allSatisfy { !$0.hasSuffix(".tmp") })
    }

    @Test("a save removes the temporary files killed saves left, and only those")
    func leftoversRemoved() async throws {
        let folder = try TemporaryFolder()
        let file = DocumentFile(url: folder.file("a.json"), format: .attractions)
        let leftovers = [
            ".a.json.\(UUID().uuidString).tmp",  // as earlier versions named them
            ".a.json.0badf00d.tmp",
        ]
        let others = [".b.json.0badf00d.tmp", ".a.json.notes.tmp", "a.json.0badf00d.tmp"]
        for name in leftovers + others {
            #expect(
                FileManager.default.createFile(
                    atPath: folder.file(name).path, contents: Data(count: 10)))
        }

        // A save still writing its temporary file (one that lost the lock to a deleted lock
        // file, say) holds a lock on it: that one is not a leftover.
        let inUse = ".a.json.12345678.tmp"
        #expect(FileManager.default.createFile(atPath: folder.file(inUse).path, contents: nil))
        let writer = openFile(folder.file(inUse).path, O_RDONLY, 0)
        #expect(flock(writer, LOCK_EX) == 0)
        defer { close(writer) }

        try await file.overwrite(with: [Attraction(name: "Louvre")])

        #expect(try folder.contents() == ([".a.json.lock", "a.json", inUse] + others).sorted())
    }

    @Test("a save whose folder cannot be flushed reports the file written but unconfirmed")
    func unconfirmedSave() async throws {
        let folder = try TemporaryFolder()
        let file = DocumentFile(url: folder.file("a.json"), format: .attractions)

        let durability = try file.overwrite(
            with: [Attraction(name: "Louvre")],
            steps: AlteredReplacementSteps(folderSyncFailure: "I/O error"))

        #expect(durability == .unconfirmed("I/O error"))
        #expect(try await file.load()?.map(\.name) == ["Louvre"])
    }

    @Test(
        "a folder another process keeps locked fails a save after 10 s, naming the folder and what was left undone, and writes nothing"
    )
    func folderLockedTooLong() async throws {
        let folder = try TemporaryFolder()
        // A stopped process holding the folder's lock: a lock on a descriptor of its own.
        let holder = openFile(folder.url.path, O_RDONLY | O_DIRECTORY, 0)
        #expect(flock(holder, LOCK_EX) == 0)
        defer { close(holder) }
        let document = DocumentFile(url: folder.file("a.json"), format: .attractions)

        let saving = Task.detached {
            try await document.overwrite(with: [Attraction(name: "Louvre")])
        }
        let start = ContinuousClock.now
        let failures = [await saving.result.failure]
        let waited = ContinuousClock.now - start

        let consequences = ["nothing was written"]
        for (failure, consequence) in zip(failures, consequences) {
            let message = "\(failure.map(String.init(describing:)) ?? "no error")"
            #expect(message.hasSuffix("for over 10.0 seconds (is it stopped?); \(consequence)"))
            #expect(
                message.contains("another process has held the lock on the folder"), "\(message)")
            #expect(message.contains(folder.url.lastPathComponent), "\(message)")
            #expect(message.contains("is it stopped?"), "\(message)")
        }
        #expect(waited >= .seconds(9), "gave up after \(waited)")
        #expect(try folder.contents() == [])
    }

    @Test("saves waiting for another process's lock leave the cooperative pool free")
    func lockWaitsOffThePool() async throws {
        let folder = try TemporaryFolder()
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        // This process holds each document's lock; the saves run in a child, whose cooperative
        // pool (as wide as this machine has cores) nothing else uses, sanitizer or not.
        var held: [Int32] = []
        for index in 0..<count {
            let descriptor = openFile(
                folder.file(".d\(index).json.lock").path, O_RDWR | O_CREAT, 0o600)
            #expect(flock(descriptor, LOCK_EX) == 0)
            held.append(descriptor)
        }
        let output = Pipe()
        let child = Process()
        child.executableURL = try executable(named: "other-process")
        child.arguments = ["--saves-beside-locks", folder.url.path, String(count)]
        child.standardOutput = output
        try child.run()
        try output.fileHandleForWriting.close()  // the child's copy is the only one left

        // Its pool runs a task queued behind the saves while they wait: were they holding its
        // threads, that line would come only once their patience (10 s) ran out and they failed.
        // The locks are let go on the thread that reads it, at once: this process's own pool
        // may be busy with other tests for seconds.
        let locks = held
        let lines = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var text = ""
                var released = false
                while case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty {
                    text += String(decoding: chunk, as: UTF8.self)
                    if !released, text.hasPrefix("pool free\n") {
                        released = true
                        for descriptor in locks { close(descriptor) }
                    }
                }
                // A child that said something else first: the locks are let go all the same.
                if !released { for descriptor in locks { close(descriptor) } }
                continuation.resume(returning: text.split(separator: "\n").map(String.init))
            }
        }
        while child.isRunning { try await Task.sleep(for: .milliseconds(1)) }

        #expect(lines == ["pool free", "saved \(count)"])
        #expect(child.terminationStatus == 0)
        #expect(Set(try folder.contents()).isSuperset(of: (0..<count).map { "d\($0).json" }))
    }
}

/// The C library's `open`.
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

extension Result {
    /// The error, if this is a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
