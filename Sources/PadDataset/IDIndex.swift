import PadSamples

/// Which sample of a ``SampleList`` has a given id: open addressing over 32-bit sample numbers
/// (at most half the slots used, so 8 bytes or less a sample), the ids themselves read from the
/// list. Finds duplicate manifest lines without a dictionary of every id string. Ids hash and
/// compare as Swift strings (Unicode canonical equivalence, as every table keyed by id does), so
/// `café` written NFC and NFD are one id here too: the second line is a duplicate, not a sample
/// that other tables would silently merge with the first.
struct IDIndex {
    private var slots = [Int32](repeating: -1, count: 1024)
    private var used = 0

    /// The number of the sample already named `id`; nil after recording `next` for it.
    mutating func firstOrInsert(_ id: String, next: Int, in samples: SampleList) -> Int? {
        var slot = Int(Self.hash(id) & UInt64(slots.count - 1))
        while slots[slot] >= 0 {
            let k = Int(slots[slot])
            if samples.id(k) == id { return k }
            slot = (slot + 1) & (slots.count - 1)
        }
        slots[slot] = Int32(next)
        used += 1
        if used * 2 > slots.count { grow(samples, adding: (id, next)) }
        return nil
    }

    /// The string's own hash, equal for canonically equivalent ids (FNV-1a of the bytes is not).
    static func hash(_ id: String) -> UInt64 { UInt64(bitPattern: Int64(id.hashValue)) }

    /// Twice the slots; every recorded sample placed again (`added` is not in `samples` yet).
    private mutating func grow(_ samples: SampleList, adding added: (id: String, number: Int)) {
        let old = slots
        slots = [Int32](repeating: -1, count: old.count * 2)
        let mask = UInt64(slots.count - 1)
        for number in old where number >= 0 {
            let id = Int(number) == added.number ? added.id : samples.id(Int(number))
            var slot = Int(Self.hash(id) & mask)
            while slots[slot] >= 0 { slot = (slot + 1) & Int(mask) }
            slots[slot] = number
        }
    }
}
