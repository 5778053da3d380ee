import Foundation
import MVCListStore
import MVCPostgresStore
import SampleSupport

/// The `--store` and `--convert` options: a path to an attractions file (or a `postgres://` URL
/// and table), checked for the mistakes one given on a command line can have before anything is
/// opened.
enum StoreOption {
    /// The file `text` names.
    ///
    /// - Throws: `UsageError` naming the problem: an empty or blank path, one that ends in a
    ///   slash (a folder's path, where a file's is needed), or one in a folder that does not
    ///   exist (a typo there would otherwise create folders; only the default location is made).
    static func url(from text: String, option: String = "--store") throws(UsageError) -> URL {
        if text.isEmpty {
            throw UsageError(message: "\(option) needs the path of a file, and it was given ''")
        }
        if text.allSatisfy(\.isWhitespace) {
            throw UsageError(
                message: "\(option) needs the path of a file, and '\(text.terminalSafe)' is blank")
        }
        if PostgresLocation.names(text) {
            do throws(PersistenceError) {
                _ = try PostgresLocation(text)
            } catch {
                throw UsageError(message: "\(option): \(error.description)")
            }
            guard let url = URL(string: text) else {
                throw UsageError(message: "\(option): '\(text.terminalSafe)' is not a URL")
            }
            return url
        }
        if text.hasSuffix("/") {
            throw UsageError(
                message:
                    "\(option) '\(text.terminalSafe)' ends with '/', so it names a folder; give a file, such as '\(text.terminalSafe)attractions.json'"
            )
        }
        // Made absolute by hand: Foundation would take `..` out of a relative path by its text,
        // where the system (and SQLite) resolve it after the link before it.
        let absolute =
            text.hasPrefix("/") ? text : FileManager.default.currentDirectoryPath + "/" + text
        let url = URL(fileURLWithPath: absolute)
        let folder = url.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            throw UsageError(
                message:
                    "\(option) '\(text.terminalSafe)' is in the folder '\(folder.path.terminalSafe)', which does not exist; create it first, or give another path"
            )
        }
        return url
    }
}
