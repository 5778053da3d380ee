public import Foundation

/// Where a program keeps its data by default, per platform.
public enum DataLocation {
    /// The per-user data folder for `application`.
    ///
    /// On Linux, `$XDG_DATA_HOME/<application>` when that variable holds an absolute path,
    /// otherwise `~/.local/share/<application>` (the XDG base directory rules). On Apple
    /// platforms, `~/Library/Application Support/<application>`.
    ///
    /// - Parameters:
    ///   - application: The folder name for this program's data.
    ///   - environment: The environment to read `XDG_DATA_HOME` and `HOME` from.
    public static func defaultFolder(
        for application: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        #if canImport(Darwin)
            let base =
                FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)
                .first
                ?? URL(fileURLWithPath: NSHomeDirectory()).appending(
                    path: "Library/Application Support")
        #else
            let base: URL
            if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
                base = URL(fileURLWithPath: dataHome, isDirectory: true)
            } else {
                let home =
                    environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
                base = URL(fileURLWithPath: home, isDirectory: true).appending(path: ".local/share")
            }
        #endif
        return base.appending(path: application, directoryHint: .isDirectory)
    }
}
