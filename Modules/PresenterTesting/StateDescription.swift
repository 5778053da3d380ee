/// A value described one leaf per line, each line led by its path (`rows[1].name: "bee"`), so a
/// diff of two descriptions says where a change is, however deep.
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
        case .collection, .set:
            if mirror.children.isEmpty { lines.append(leaf(path, "[]")) }
            for (index, child) in mirror.children.enumerated() {
                append(child.value, path: path + "[\(index)]", to: &lines)
            }
        case .dictionary:
            if mirror.children.isEmpty { lines.append(leaf(path, "[:]")) }
            for child in mirror.children {
                let pair = Array(Mirror(reflecting: child.value).children)
                guard pair.count == 2 else { continue }
                append(
                    pair[1].value, path: path + "[\(String(reflecting: pair[0].value))]", to: &lines
                )
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

    private static func leaf(_ path: String, _ value: String) -> String {
        path.isEmpty ? value : "\(path): \(value)"
    }
}
