import Foundation
import SampleSupport

/// The `--store` option: a path to the attractions file, checked for the mistakes a path given
/// on a command line can have before anything is opened.
enum StoreOption {
    /// The file `text` names.
    ///
    /// - Throws: `UsageError` naming the problem: an empty or blank path, or one that ends in a
    ///   slash (a folder's path, where a file's is needed).
    static func url(from text: String) throws(UsageError) -> URL {
        if text.isEmpty {
            throw UsageError(message: "--store needs the path of a file, and it was given ''")
        }
        if text.allSatisfy(\.isWhitespace) {
            throw UsageError(
                message: "--store needs the path of a file, and '\(text.terminalSafe)' is blank")
        }
        if text.hasSuffix("/") {
            throw UsageError(
                message:
                    "--store '\(text.terminalSafe)' ends with '/', so it names a folder; give a file, such as '\(text.terminalSafe)attractions.json'"
            )
        }
        return URL(fileURLWithPath: text)
    }
}
