/// Why a list could not be loaded or saved, whichever adapter keeps it (a JSON document, a
/// database file, a server's table); every case names where.
///
/// A failed load never changes the file: it is left byte for byte as it was, for the user to
/// recover or inspect.
public enum PersistenceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file exists but cannot be read (permissions, a folder in its place, an I/O error).
    case unreadable(path: String, reason: String)
    /// The file is not a list of this kind: not JSON, truncated, of the wrong shape, or not a
    /// database this program made.
    case corrupt(path: String, reason: String)
    /// The file is well formed, but a value in it breaks the rules values keep in
    /// memory (an empty name, two rows with one id...); `reason` names the row and field.
    case brokenRule(path: String, reason: String)
    /// The file was written by a newer version of the program, in a format this one does not know.
    case newerVersion(path: String, found: Int, supported: Int)
    /// The file is in an older format, and converting it failed.
    case migrationFailed(path: String, fromVersion: Int, reason: String)
    /// The list could not be written (the folder is read-only, the disk is full, the server
    /// cannot be reached...).
    case unwritable(path: String, reason: String)

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason)"
        case .corrupt(let path, let reason):
            "cannot read \(path): it is not a valid document (\(reason)); the file was left untouched"
        case .brokenRule(let path, let reason):
            "cannot load \(path): \(reason); nothing was written to it (fix or remove the rows named, by hand)"
        case .newerVersion(let path, let found, let supported):
            "cannot read \(path): it is in format version \(found), and this program reads versions up to \(supported); use a newer version of the program"
        case .migrationFailed(let path, let version, let reason):
            "cannot convert \(path) from format version \(version): \(reason); the file was left untouched"
        case .unwritable(let path, let reason):
            "cannot save \(path): \(reason)"
        }
    }
}

extension PersistenceError {
    /// What went wrong, without the path (which the error's description starts with).
    package var reason: String {
        switch self {
        case .unreadable(_, let reason), .unwritable(_, let reason), .corrupt(_, let reason),
            .brokenRule(_, let reason), .migrationFailed(_, _, let reason):
            reason
        default: description
        }
    }
}
