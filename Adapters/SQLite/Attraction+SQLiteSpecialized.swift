import Foundation
import MVCModel
import MVCStore
import MVCTracing

// Tuning, kept out of the adapter's own files: opening a database of attractions, compiled once
// more for `Attraction` (prespecialized). Unspecialized, decoding a million rows asks the runtime
// for generic metadata at every row (`RowDecoder.element`, as perf shows). The method below only
// names `openDatabase` (which it calls) and the type to compile it for.
//
// Optimized builds only, as `AttractionStore+Specialized.swift` says.
#if !DEBUG
    @_specializeExtension
    extension ListStore where Element: SQLiteListElement {
        @_specialize(
            exported:true,target:openDatabase(at:busyWait:pollInterval:clock:tracer:),where
                Element == Attraction
        )
        static func prespecializedOpenDatabase(
            at url: URL, busyWait: Duration, pollInterval: Duration?, clock: any Clock<Duration>,
            tracer: HopTracer
        ) async throws(PersistenceError) -> (
            store: ListStore, persistence: SQLitePersistence<Element>
        ) {
            try await openDatabase(
                at: url, busyWait: busyWait, pollInterval: pollInterval, clock: clock,
                tracer: tracer)
        }
    }
#endif
