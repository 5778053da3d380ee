// The Swift Programming Language
// https://docs.swift.org/swift-book

@main
struct PackingList {
    static func main() {
        print("Hello, world!")
    }
}
