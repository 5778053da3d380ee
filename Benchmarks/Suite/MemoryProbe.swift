import HeapStatistics

/// Bytes currently allocated on the heap, where the platform can tell (glibc's `mallinfo2`).
func heapBytesInUse() -> Int? {
    let bytes = heap_bytes_in_use()
    return bytes < 0 ? nil : Int(bytes)
}

/// The heap growth per item while `count` items made by `make` are alive in an array (the array
/// included, as a user keeps tokens in one), or `nil` where the platform cannot measure it.
func heapBytesPerItem<Item>(count: Int, _ make: (Int) -> Item) -> Double? {
    guard let before = heapBytesInUse() else { return nil }
    var items: [Item] = []
    for index in 0..<count { items.append(make(index)) }
    guard let after = heapBytesInUse() else { return nil }
    blackHole(items)
    return Double(after - before) / Double(count)
}
