import Foundation

/// The names of the files a document keeps beside itself: its lock file and the temporary files
/// of its saves.
///
/// Each starts with a stem: `.` and the document's name, so a listing shows whose they are. A
/// name is at most `NAME_MAX` (255) bytes, so a long document name is shortened in the stem and a
/// hash of the whole name added (`.<first bytes>~<hash>`): a document with any legal name can be
/// saved, and two long names that begin alike do not share a lock.
struct CompanionFiles {
    let folder: URL
    /// The common beginning of the companion files' names.
    let stem: String

    /// The longest suffix a companion file adds to the stem: `.` + 8 hex digits + `.tmp`.
    private static let longestSuffix = 13
    /// The longest name a folder holds, in bytes: the system's `NAME_MAX`.
    private static let nameLimit = Int(NAME_MAX)

    /// The companions of the document at `path` (symbolic links already followed).
    init(ofDocumentAt path: String) {
        let document = URL(fileURLWithPath: path)
        folder = document.deletingLastPathComponent()
        let name = document.lastPathComponent
        let full = "." + name
        if full.utf8.count + Self.longestSuffix <= Self.nameLimit {
            stem = full
        } else {
            let hash = "~" + Self.hexadecimal(Self.fnv1a(name))
            var shortened = full
            while shortened.utf8.count + hash.utf8.count + Self.longestSuffix > Self.nameLimit {
                shortened.removeLast()  // by characters, so UTF-8 is never cut inside one
            }
            stem = shortened + hash
        }
    }

    /// The lock file every save of the document holds (see `FileLock`).
    var lockPath: String { folder.appending(path: stem + ".lock").path }

    /// A new, unused-looking name for a save's temporary file.
    func temporaryPath() -> String {
        let random = Self.hexadecimal(UInt64.random(in: 0...UInt64(UInt32.max)))
        return folder.appending(path: "\(stem).\(random).tmp").path
    }

    /// Every file in the folder named like this document's temporary files: those of killed
    /// saves, and of a save still running (see `AtomicFile.removeLeftovers`).
    func leftoverTemporaryFiles() -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            return []
        }
        return names.filter(isTemporaryName).map { folder.appending(path: $0).path }
    }

    /// Whether `name` is one of this document's temporary files: the stem, a dot, 8 hex digits (or
    /// a UUID, as earlier versions named them), `.tmp`.
    ///
    /// Compared byte for byte: `String` comparison takes canonically equivalent names as equal
    /// (`café` composed and decomposed), and those are two documents with two locks.
    private func isTemporaryName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let prefix = Array((stem + ".").utf8)
        let suffix = Array(".tmp".utf8)
        guard bytes.count > prefix.count + suffix.count, bytes.starts(with: prefix),
            bytes.suffix(suffix.count).elementsEqual(suffix)
        else { return false }
        let middle = String(
            decoding: bytes[prefix.count..<(bytes.count - suffix.count)], as: UTF8.self)
        if middle.utf8.count == 8 { return middle.allSatisfy(\.isHexDigit) }
        return UUID(uuidString: middle) != nil
    }

    private static func hexadecimal(_ value: UInt64) -> String {
        let digits = String(value & 0xFFFF_FFFF, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// FNV-1a over the name's bytes: stable across runs and processes, unlike `hashValue`.
    private static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
