/// LSD radix sort of Doubles (no NaNs): four passes over 16-bit digits of the IEEE-754 bit
/// pattern mapped to an order-preserving unsigned key (flip all bits of negatives, the sign bit of
/// positives). Several times faster than a comparison sort on millions of scores, and it is what
/// keeps `ErrorCurve` O(n) after reading. Plain UInt64 keys (id hashes) sort the same way.
enum RadixSort {
    static func sort(_ values: inout [Double]) {
        values.withUnsafeMutableBufferPointer { sort($0) }
    }

    static func sort(_ values: UnsafeMutableBufferPointer<Double>) {
        let n = values.count
        if n < 4096 {
            var small = values
            small.sort()
            return
        }
        var keys = [UInt64](repeating: 0, count: n)
        keys.withUnsafeMutableBufferPointer { k in
            for i in 0..<n {
                let bits = values[i].bitPattern
                k[i] = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
            }
        }
        sort(&keys)
        keys.withUnsafeBufferPointer { k in
            for i in 0..<n {
                let key = k[i]
                values[i] = Double(bitPattern: key & (1 << 63) != 0 ? key & ~(1 << 63) : ~key)
            }
        }
    }

    /// Ascending, four counting passes over 16-bit digits (comparison sort below 4096 keys).
    static func sort(_ keys: inout [UInt64]) {
        let n = keys.count
        if n < 4096 {
            keys.sort()
            return
        }
        var scratch = [UInt64](repeating: 0, count: n)
        var counts = [Int](repeating: 0, count: 1 << 16)
        for pass in 0..<4 {
            let shift = UInt64(pass * 16)
            keys.withUnsafeBufferPointer { source in
                scratch.withUnsafeMutableBufferPointer { target in
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
                }
            }
            swap(&keys, &scratch)
        }
    }
}
