import Foundation

/// The lines typed on standard input, read on a thread of their own.
///
/// `readLine()` blocks until a line comes. Read on the main actor, it would stop every timer
/// and observer there (the saver's among them) for as long as the user takes to type.
func inputLines() -> AsyncStream<String> {
    AsyncStream { lines in
        Thread.detachNewThread {
            while let line = readLine() { lines.yield(line) }
            lines.finish()
        }
    }
}

/// Runs `finish` when the program is asked to stop (Control-C, or `kill`), then ends it.
///
/// - Returns: The signal sources; keep them for as long as the program runs.
@MainActor
func onStop(_ finish: @escaping @MainActor () async -> Void) -> [any DispatchSourceSignal] {
    [SIGINT, SIGTERM].map { number in
        signal(number, SIG_IGN)  // heard by the source below instead of ending the program
        let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
        source.setEventHandler {
            Task { @MainActor in
                await finish()
                exit(128 + number)  // the status a shell gives a program a signal ended
            }
        }
        source.resume()
        return source
    }
}
