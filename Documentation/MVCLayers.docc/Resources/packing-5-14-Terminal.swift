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
