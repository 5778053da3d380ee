/// A line diff for failure messages: the longest common subsequence of two line lists, printed
/// as removed (−) and added (+) lines, each changed run with its removals first.
///
/// Memory is linear in the number of lines (Hirschberg's divide and conquer keeps two rows of the
/// table, not the whole table), so a failing step on a view-state of thousands of rows costs
/// megabytes, not gigabytes. Time is the product of the lengths of the part that differs (a
/// common head and tail are matched first); past a bound, that part is shown whole as removed and
/// added rather than searched for common lines.
enum LineDiff {
    /// One line of the result.
    private enum Line {
        case same
        case removed(String)
        case added(String)
    }

    /// Beyond this many line pairs, the differing middle is shown whole instead of aligned.
    private static let alignmentBudget = 4_000_000

    /// The changed lines of `old` → `new`; "(no difference)" when they are equal.
    static func render(from old: [String], to new: [String]) -> String {
        var lines: [Line] = []
        align(old[...], new[...], into: &lines)
        var text: [String] = []
        var removed: [String] = []
        var added: [String] = []
        func flush() {
            text.append(contentsOf: removed.map { "− " + $0 })
            text.append(contentsOf: added.map { "+ " + $0 })
            removed.removeAll()
            added.removeAll()
        }
        for line in lines {
            switch line {
            case .same: flush()
            case .removed(let line): removed.append(line)
            case .added(let line): added.append(line)
            }
        }
        flush()
        return text.isEmpty ? "(no difference)" : text.joined(separator: "\n")
    }

    /// Appends the alignment of `old` and `new` to `lines`.
    private static func align(
        _ old: ArraySlice<String>, _ new: ArraySlice<String>, into lines: inout [Line]
    ) {
        var old = old
        var new = new
        // A common head and tail, matched at once.
        var head = 0
        while let first = old.first, first == new.first {
            old.removeFirst()
            new.removeFirst()
            head += 1
        }
        var tail = 0
        while let last = old.last, last == new.last {
            old.removeLast()
            new.removeLast()
            tail += 1
        }
        lines.append(contentsOf: repeatElement(.same, count: head))
        defer { lines.append(contentsOf: repeatElement(.same, count: tail)) }

        let (pairs, overflow) = old.count.multipliedReportingOverflow(by: new.count)
        if old.isEmpty || new.isEmpty || overflow || pairs > alignmentBudget {
            lines.append(contentsOf: old.map { .removed($0) })
            lines.append(contentsOf: new.map { .added($0) })
            return
        }
        if old.count == 1 {
            let only = old[old.startIndex]
            guard let match = new.firstIndex(of: only) else {
                lines.append(.removed(only))
                lines.append(contentsOf: new.map { .added($0) })
                return
            }
            lines.append(contentsOf: new[..<match].map { .added($0) })
            lines.append(.same)
            lines.append(contentsOf: new[(match + 1)...].map { .added($0) })
            return
        }
        // Split `old` in half, and `new` where the two halves' common subsequences meet best.
        let middle = old.startIndex + old.count / 2
        let forward = lengths(old[..<middle], new)
        let backward = lengths(
            ArraySlice(old[middle...].reversed()), ArraySlice(new.reversed()))
        var split = 0
        var best = -1
        for j in 0...new.count where forward[j] + backward[new.count - j] > best {
            best = forward[j] + backward[new.count - j]
            split = j
        }
        align(old[..<middle], new[..<(new.startIndex + split)], into: &lines)
        align(old[middle...], new[(new.startIndex + split)...], into: &lines)
    }

    /// The last row of the longest-common-subsequence table of `old` and every prefix of `new`,
    /// computed in two rows.
    private static func lengths(_ old: ArraySlice<String>, _ new: ArraySlice<String>) -> [Int] {
        var previous = Array(repeating: 0, count: new.count + 1)
        var current = previous
        for line in old {
            for (j, candidate) in new.enumerated() {
                current[j + 1] =
                    line == candidate ? previous[j] + 1 : max(previous[j + 1], current[j])
            }
            swap(&previous, &current)
        }
        return previous
    }
}
