/// A binary min-heap of (key, item) pairs: Dijkstra's queue (Cormen et al., ch. 6). Entries are
/// never decreased in place; a search pushes again and skips stale pops. The pairs sit in one
/// array and move through a hole rather than by swaps (a third fewer writes than swapping two
/// parallel arrays, which profiles of the hierarchies' build showed).
struct MinHeap {
    private struct Entry {
        var key: Int64
        var item: Int32
    }

    private var entries: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }
    var minimumKey: Int64? { entries.first?.key }

    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
    }

    /// - Complexity: O(log n).
    mutating func push(_ key: Int64, _ item: Int32) {
        entries.append(Entry(key: key, item: item))
        entries.withUnsafeMutableBufferPointer { heap in
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[parent].key > key else { break }
                heap[child] = heap[parent]
                child = parent
            }
            heap[child] = Entry(key: key, item: item)
        }
    }

    /// - Complexity: O(log n).
    mutating func pop() -> (key: Int64, item: Int32)? {
        guard let first = entries.first else { return nil }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries.withUnsafeMutableBufferPointer { heap in
                let count = heap.count
                var hole = 0
                while true {
                    let left = 2 * hole + 1
                    guard left < count else { break }
                    let right = left + 1
                    let smaller = right < count && heap[right].key < heap[left].key ? right : left
                    guard heap[smaller].key < last.key else { break }
                    heap[hole] = heap[smaller]
                    hole = smaller
                }
                heap[hole] = last
            }
        }
        return (first.key, first.item)
    }
}
