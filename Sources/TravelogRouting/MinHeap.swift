/// A binary min-heap of (key, item) pairs: Dijkstra's queue (Cormen et al., ch. 6). Entries are
/// never decreased in place; a search pushes again and skips stale pops.
struct MinHeap {
    private var keys: [Int64] = []
    private var items: [Int32] = []

    var isEmpty: Bool { keys.isEmpty }
    var minimumKey: Int64? { keys.first }

    mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        items.removeAll(keepingCapacity: true)
    }

    /// - Complexity: O(log n).
    mutating func push(_ key: Int64, _ item: Int32) {
        keys.append(key)
        items.append(item)
        var child = keys.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard keys[parent] > keys[child] else { break }
            keys.swapAt(parent, child)
            items.swapAt(parent, child)
            child = parent
        }
    }

    /// - Complexity: O(log n).
    mutating func pop() -> (key: Int64, item: Int32)? {
        guard let key = keys.first, let item = items.first else { return nil }
        let lastKey = keys.removeLast(), lastItem = items.removeLast()
        if !keys.isEmpty {
            keys[0] = lastKey
            items[0] = lastItem
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < keys.count && keys[left] < keys[smallest] { smallest = left }
                if right < keys.count && keys[right] < keys[smallest] { smallest = right }
                guard smallest != parent else { break }
                keys.swapAt(parent, smallest)
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return (key, item)
    }
}
