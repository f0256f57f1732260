/// The positions in `values` of one longest strictly increasing run of them (not necessarily
/// adjacent), ascending: the elements a list diff leaves in place, so that it reports the fewest
/// moves. O(n log n), patience sorting.
func longestIncreasingRun(_ values: [Int]) -> [Int] {
    var tails: [Int] = []  // positions in `values`: the smallest tail of a run of each length
    var previous = [Int](repeating: -1, count: values.count)
    for (position, value) in values.enumerated() {
        var low = 0
        var high = tails.count
        while low < high {
            let middle = (low + high) / 2
            if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
        }
        if low > 0 { previous[position] = tails[low - 1] }
        if low == tails.count { tails.append(position) } else { tails[low] = position }
    }
    var run: [Int] = []
    var position = tails.last ?? -1
    while position >= 0 {
        run.append(position)
        position = previous[position]
    }
    return run.reversed()
}
