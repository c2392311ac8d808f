/// LSD radix sort of Doubles (no NaNs): four passes over 16-bit digits of the IEEE-754 bit
/// pattern mapped to an order-preserving unsigned key (flip all bits of negatives, the sign bit of
/// positives). Several times faster than a comparison sort on millions of scores, and it is what
/// keeps `ErrorCurve` O(n) after reading. Plain UInt64 keys (id hashes) sort the same way.
enum RadixSort {
    static func sort(_ values: inout [Double]) {
        values.withUnsafeMutableBufferPointer { sort($0) }
    }

    /// Sorts in place: the values' bits become keys in their own buffer (no second array of n).
    static func sort(_ values: UnsafeMutableBufferPointer<Double>) {
        let n = values.count
        if n < 4096 {
            var small = values
            small.sort()
            return
        }
        values.withMemoryRebound(to: UInt64.self) { keys in
            for i in 0..<n {
                let bits = keys[i]
                keys[i] = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
            }
            sort(keys)
            for i in 0..<n {
                let key = keys[i]
                keys[i] = key & (1 << 63) != 0 ? key & ~(1 << 63) : ~key
            }
        }
    }

    /// Ascending, four counting passes over 16-bit digits (comparison sort below 4096 keys).
    static func sort(_ keys: inout [UInt64]) {
        keys.withUnsafeMutableBufferPointer { sort($0) }
    }

    /// The same in place. The scratch buffer is not cleared first: the first pass writes every
    /// element before any is read (clearing would touch n * 8 bytes once more).
    static func sort(_ keys: UnsafeMutableBufferPointer<UInt64>) {
        let n = keys.count
        if n < 4096 {
            var small = keys
            small.sort()
            return
        }
        let scratch = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: n)
        defer { scratch.deallocate() }
        var counts = [Int](repeating: 0, count: 1 << 16)
        // Four passes (even): the sorted keys end in `keys`.
        var source = keys, target = scratch
        for pass in 0..<4 {
            let shift = UInt64(pass * 16)
            counts.withUnsafeMutableBufferPointer { count in
                for i in 0..<(1 << 16) { count[i] = 0 }
                for i in 0..<n { count[Int((source[i] >> shift) & 0xFFFF)] += 1 }
                var sum = 0
                for i in 0..<(1 << 16) { let c = count[i]; count[i] = sum; sum += c }
                for i in 0..<n {
                    let digit = Int((source[i] >> shift) & 0xFFFF)
                    target[count[digit]] = source[i]
                    count[digit] += 1
                }
            }
            swap(&source, &target)
        }
    }
}
