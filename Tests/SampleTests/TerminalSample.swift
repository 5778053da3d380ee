import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A sample running on a pseudo-terminal, typed at key by key as a person would, while the test
/// reads the screen and the terminal's settings.
final class TerminalSample: @unchecked Sendable {
    private let process = Process()
    private let master: Int32
    private let slave: FileHandle
    private let received = ReceivedBytes()
    private let reader: Thread
    /// The terminal's settings before the sample started.
    let settingsBefore: termios

    /// A failure to set the pseudo-terminal up.
    struct SetupFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `name` on a new pseudo-terminal; with `output`, its standard output goes to that
    /// file instead (`sample > file` on a terminal).
    init(_ name: String, _ arguments: [String] = [], output: URL? = nil) throws {
        master = PseudoTerminalCalls.openMaster(O_RDWR | O_NOCTTY)
        guard master >= 0, PseudoTerminalCalls.grant(master) == 0,
            PseudoTerminalCalls.unlock(master) == 0,
            let slaveName = PseudoTerminalCalls.slaveName(master)
        else { throw SetupFailure(description: "no pseudo-terminal: errno \(errno)") }
        let slaveDescriptor = open(slaveName, O_RDWR | O_NOCTTY)
        guard slaveDescriptor >= 0 else {
            throw SetupFailure(description: "cannot open \(String(cString: slaveName))")
        }
        slave = FileHandle(fileDescriptor: slaveDescriptor, closeOnDealloc: true)
        var settings = termios()
        tcgetattr(slaveDescriptor, &settings)
        settingsBefore = settings

        process.executableURL = try SampleRunner.executable(named: name)
        process.arguments = arguments
        process.standardInput = slave
        process.standardOutput = try output.map { try FileHandle(forWritingTo: $0) } ?? slave
        process.standardError = slave
        let master = self.master
        let received = self.received
        reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                received.append(buffer[0..<count])
            }
        }
        try process.run()
        reader.start()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        close(master)
    }

    /// Sends keys: text, and escape sequences such as `"\u{1B}[D"` for the left arrow.
    func type(_ keys: String) async {
        let bytes = Array(keys.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        try? await Task.sleep(for: .milliseconds(20))
    }

    /// Everything the sample wrote, escape sequences included.
    var screen: String {
        String(decoding: received.bytes, as: UTF8.self)
    }

    /// Waits until the output holds `text`, for at most `seconds`.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 30) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        while ContinuousClock.now < deadline {
            if screen.contains(text) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    /// The terminal's settings now (the sample may have changed them).
    var settingsNow: termios {
        var settings = termios()
        tcgetattr(slave.fileDescriptor, &settings)
        return settings
    }

    /// Whether the terminal is in its usual line mode: canonical input, echo on.
    var isInLineMode: Bool {
        let flags = settingsNow.c_lflag
        return flags & tcflag_t(ICANON) != 0 && flags & tcflag_t(ECHO) != 0
    }

    /// Whether the sample is stopped (by a stop signal), read from `/proc`, as `ps` shows it.
    ///
    /// The sample puts the terminal back before it stops itself, so a test that continues it
    /// must wait for this: a SIGCONT sent in between is lost, and the sample then stops for good.
    var isStopped: Bool {
        guard
            let stat = try? String(
                contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return false }
        // After the command name, in parentheses, comes the state: "T" for stopped.
        return stat[end...].dropFirst().drop(while: { $0 == " " }).first == "T"
    }

    /// Sends `signal` to the sample.
    func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the sample to end, for at most `seconds`; its exit status, or `nil` if it did not.
    func waitForExit(seconds: Double = 60) async -> Int32? {
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        while process.isRunning && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        guard !process.isRunning else { return nil }
        return process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
    }
}

/// The C library's pseudo-terminal calls, which the Glibc module does not export, found by name.
private enum PseudoTerminalCalls {
    private typealias Open = @convention(c) (Int32) -> Int32
    private typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    private static func function<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }

    static func openMaster(_ flags: Int32) -> Int32 {
        function("posix_openpt", as: Open.self)?(flags) ?? -1
    }

    static func grant(_ master: Int32) -> Int32 {
        function("grantpt", as: Open.self)?(master) ?? -1
    }

    static func unlock(_ master: Int32) -> Int32 {
        function("unlockpt", as: Open.self)?(master) ?? -1
    }

    static func slaveName(_ master: Int32) -> UnsafeMutablePointer<CChar>? {
        function("ptsname", as: Name.self)?(master)
    }
}

/// What the sample wrote, shared with the thread that reads it.
///
/// Behind an `NSLock`, not a `Mutex`: the thread sanitizer cannot follow a contended `Mutex` on
/// Linux, and reports the next access as a race.
private final class ReceivedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var all: [UInt8] = []

    func append(_ more: ArraySlice<UInt8>) {
        lock.lock()
        defer { lock.unlock() }
        all.append(contentsOf: more)
    }

    var bytes: [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return all
    }
}
