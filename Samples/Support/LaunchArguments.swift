#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A sample's command-line arguments: flags such as `--trace`, and options with a value such as
/// `--store PATH`.
public struct LaunchArguments: Sendable {
    /// The flags given, without their leading dashes' meaning changed: `"--trace"`.
    public private(set) var flags: Set<String> = []
    /// The options given with their values: `["--store": "/tmp/a.json"]`.
    public private(set) var values: [String: String] = [:]

    /// Parses `arguments` (without the program name), accepting only the flags and options named.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - knownFlags: Flags that take no value, such as `--help`.
    ///   - knownOptions: Options that take one value, given as `--name value` or `--name=value`.
    /// - Throws: ``UsageError`` for an unknown argument or an option without its value.
    public init(_ arguments: [String], knownFlags: Set<String>, knownOptions: Set<String> = [])
        throws
    {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if knownFlags.contains(argument) {
                flags.insert(argument)
            } else if let equals = argument.firstIndex(of: "="),
                knownOptions.contains(String(argument[..<equals]))
            {
                let option = String(argument[..<equals])
                guard values[option] == nil else {
                    throw UsageError(message: "\(option) is given twice")
                }
                values[option] = String(argument[argument.index(after: equals)...])
            } else if knownOptions.contains(argument) {
                guard values[argument] == nil else {
                    throw UsageError(message: "\(argument) is given twice")
                }
                guard let value = remaining.popFirst() else {
                    throw UsageError(message: "\(argument) needs a value")
                }
                values[argument] = value
            } else {
                throw UsageError(message: "unknown argument '\(argument)'")
            }
        }
    }

    /// Whether `flag` was given.
    public func contains(_ flag: String) -> Bool {
        flags.contains(flag)
    }
}

extension LaunchArguments {
    /// This process's arguments, or an exit: `--help` prints `usage` and exits 0; an unknown
    /// argument prints the error and `usage` and exits with ``usageExitStatus``.
    ///
    /// - Parameters:
    ///   - usage: The sample's help text.
    ///   - knownFlags: Flags other than `--help`, which every sample has.
    ///   - knownOptions: Options that take a value.
    ///   - console: Where help and errors go.
    @MainActor
    public static func parseOrExit(
        usage: String,
        knownFlags: Set<String>,
        knownOptions: Set<String> = [],
        console: Console
    ) -> LaunchArguments {
        let arguments: LaunchArguments
        do {
            try checkEncoding()
            arguments = try LaunchArguments(
                Array(CommandLine.arguments.dropFirst()),
                knownFlags: knownFlags.union(["--help", "-h"]),
                knownOptions: knownOptions
            )
        } catch {
            console.printError("\(error)")
            console.printUsageHint(usage)
            exitProcess(usageExitStatus)
        }
        if arguments.contains("--help") || arguments.contains("-h") {
            console.print(usage)
            exitProcess(0)
        }
        return arguments
    }
}

/// Refuses an argument whose bytes are not UTF-8: Swift's `String` would replace them (a `--store`
/// of `d/\xff.json` would name `d/�.json`, and two such paths the same file), so the file opened
/// would not be the one named.
func checkEncoding() throws(UsageError) {
    for index in 1..<Int(CommandLine.argc) {
        guard let raw = CommandLine.unsafeArgv[index] else { continue }
        try refuseIfNotUTF8(raw, named: "argument \(index)")
    }
}

/// Refuses, for the same reason as an argument's, the bytes a path would be built from: each of
/// the environment variables `names` that is set (`HOME`, for a default location), and the
/// current folder's path if `currentFolder` (for a relative path).
public func checkPathBytes(environment names: [String], currentFolder: Bool) throws(UsageError) {
    for name in names {
        if let raw = getenv(name) { try refuseIfNotUTF8(raw, named: "$\(name)") }
    }
    guard currentFolder else { return }
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    if getcwd(&buffer, buffer.count) != nil {
        try refuseIfNotUTF8(buffer, named: "the current folder")
    }
}

private func refuseIfNotUTF8(_ raw: UnsafePointer<CChar>, named name: String) throws(UsageError) {
    guard String(validatingCString: raw) == nil else { return }
    var bytes: [UInt8] = []
    var cursor = raw
    while cursor.pointee != 0 {
        bytes.append(UInt8(bitPattern: cursor.pointee))
        cursor += 1
    }
    let shown = bytes.map { byte in
        (0x20..<0x7F).contains(byte)
            ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16, uppercase: false)
    }.joined()
    throw UsageError(
        message:
            "\(name) (\(shown)) is not valid UTF-8; this program takes UTF-8 names only, so that the file it opens is the one named"
    )
}

/// A command line the sample cannot run; the message says what is wrong with it.
public struct UsageError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    public let message: String

    /// Creates a usage error.
    public init(message: String) {
        self.message = message
    }

    /// The message, as shown after `error:`.
    public var description: String { message }
}

/// The exit status for a command line that cannot be run (`EX_USAGE`).
public let usageExitStatus: Int32 = 64

/// Ends the process with `status`, flushing standard output first; call it once everything is
/// saved.
///
/// While it waits for a reader to take the output, a signal ends the process (there is nothing
/// left to save), and a reader that closes the pipe ends it by SIGPIPE, as before the end.
public func exitProcess(_ status: Int32) -> Never {
    if let signal = Output.beginFinishing() {
        TerminalInput.restoreTerminal()
        ExitSignals.raiseWithDefaultAction(signal)
    }
    Output.drain()
    if ClosedOutput.isClosed(STDOUT_FILENO) || ClosedOutput.isClosed(STDERR_FILENO) {
        TerminalInput.endByBrokenPipe()
    }
    exit(status)
}
