/// A line diff for failure messages: the longest common subsequence of two line lists, printed
/// as removed (−) and added (+) lines.
enum LineDiff {
    /// The changed lines of `old` → `new`; "(no difference)" when they are equal.
    static func render(from old: [String], to new: [String]) -> String {
        // Lengths of the longest common subsequence of every pair of suffixes.
        var lengths = Array(
            repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                lengths[i][j] =
                    old[i] == new[j]
                    ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var lines: [String] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                i += 1
                j += 1
            } else if j < new.count, i == old.count || lengths[i][j + 1] >= lengths[i + 1][j] {
                lines.append("+ " + new[j])
                j += 1
            } else {
                lines.append("− " + old[i])
                i += 1
            }
        }
        return lines.isEmpty ? "(no difference)" : lines.joined(separator: "\n")
    }
}
