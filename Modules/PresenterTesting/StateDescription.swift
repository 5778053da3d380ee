/// A value described one leaf per line, each line led by its path (`rows[1].name: "bee"`), so a
/// diff of two descriptions says where a change is, however deep.
///
/// Unordered collections are described in a fixed order (a dictionary by its keys' descriptions,
/// a set by its elements'), since two equal dictionaries can iterate in different orders: a diff
/// of them shows the entries that differ, not the storage order.
enum StateDescription {
    /// The lines describing `value`: one per leaf, `path: value`, in declaration order.
    static func lines(of value: Any) -> [String] {
        var lines: [String] = []
        append(value, path: "", to: &lines)
        return lines
    }

    private static func append(_ value: Any, path: String, to lines: inout [String]) {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            if let wrapped = mirror.children.first?.value {
                append(wrapped, path: path, to: &lines)
            } else {
                lines.append(leaf(path, "nil"))
            }
        case .collection:
            appendElements(mirror.children.map(\.value), path: path, to: &lines)
        case .set:
            let elements = mirror.children.map(\.value)
            appendElements(
                elements.sorted { String(reflecting: $0) < String(reflecting: $1) }, path: path,
                to: &lines)
        case .dictionary:
            if mirror.children.isEmpty { lines.append(leaf(path, "[:]")) }
            let entries = mirror.children.compactMap { child -> (key: String, value: Any)? in
                let pair = Array(Mirror(reflecting: child.value).children)
                guard pair.count == 2 else { return nil }
                return (String(reflecting: pair[0].value), pair[1].value)
            }
            for entry in entries.sorted(by: { $0.key < $1.key }) {
                append(entry.value, path: path + "[\(entry.key)]", to: &lines)
            }
        case .struct, .class, .tuple:
            if mirror.children.isEmpty {
                lines.append(leaf(path, String(reflecting: value)))
            }
            for (index, child) in mirror.children.enumerated() {
                let name = child.label ?? ".\(index)"
                append(child.value, path: path.isEmpty ? name : path + "." + name, to: &lines)
            }
        case .enum:
            // A case with a payload shows its name, then its payload's paths under it.
            guard let payload = mirror.children.first else {
                lines.append(leaf(path, String(reflecting: value)))
                return
            }
            let name = payload.label ?? "payload"
            lines.append(leaf(path, "." + name))
            append(payload.value, path: path + "." + name, to: &lines)
        default:
            lines.append(leaf(path, String(reflecting: value)))
        }
    }

    /// Describes each element under its index, or `[]` when there is none.
    private static func appendElements(_ elements: [Any], path: String, to lines: inout [String]) {
        if elements.isEmpty { lines.append(leaf(path, "[]")) }
        for (index, element) in elements.enumerated() {
            append(element, path: path + "[\(index)]", to: &lines)
        }
    }

    private static func leaf(_ path: String, _ value: String) -> String {
        path.isEmpty ? value : "\(path): \(value)"
    }
}
