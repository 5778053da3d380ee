import PackingCore

/// How the screen draws the list: text made from its view-state, and nothing else.
extension PackingListViewState {
    var text: String {
        var lines = ["Packing list (\(itemsLeft) left)"]
        for (index, row) in rows.enumerated() {
            let quantity = row.quantity > 1 ? " ×\(row.quantity)" : ""
            let weight = row.grams.map { " (\($0) g)" } ?? ""
            lines.append(
                "  \(index + 1). [\(row.isPacked ? "x" : " ")] \(row.name)\(quantity)\(weight)")
        }
        if let undoLabel { lines.append("  [Undo \(undoLabel)]") }
        if let error { lines.append("  ! \(error)") }
        if let notice { lines.append("  note: \(notice)") }
        return lines.joined(separator: "\n")
    }
}

/// How the screen draws the editor.
extension ItemEditorViewState {
    var text: String {
        var lines = ["Editing an item (a field's name and its text, then save or cancel)"]
        for field in fields {
            lines.append("  \(field.name): \(field.text.isEmpty ? "(empty)" : field.text)")
            if let problem = field.problem { lines.append("    ! \(problem)") }
        }
        if let error { lines.append("  ! \(error)") }
        return lines.joined(separator: "\n")
    }
}
