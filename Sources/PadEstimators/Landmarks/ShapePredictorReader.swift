import Foundation
import PadText

#if canImport(Glibc)
import Glibc
#endif

/// Reads dlib's serialised `shape_predictor` (the `.dat` files `libdlib-data` installs) into a
/// ``ShapePredictorModel``, refusing anything malformed with the byte offset and the reason.
///
/// Example: `ShapePredictorTests.readsDebianModel` in `Tests/PadEstimatorsTests/LandmarkTests.swift`.
/// The format, from dlib's `serialize.h`, `float_details.h` and `shape_predictor.h` (dlib 19.x):
/// - an integer is a control byte (low 4 bits: how many little-endian value bytes follow, 1...8;
///   bit 7: negative, for signed types) and then those bytes;
/// - a float is two integers, a signed 64-bit mantissa m and a signed 16-bit exponent e, value
///   m x 2^e (e = 32000, 32001, 32002: +inf, -inf, NaN); dlib's older ASCII float encoding is not read;
/// - a `std::vector` is its element count (unsigned) and the elements; a `matrix` is its row and
///   column counts (signed, negated in the newer format) and the elements row by row;
/// - the predictor: version (int, 1), the initial shape (matrix 2n x 1), the forests (a vector of
///   levels, each a vector of trees, each tree a vector of splits (idx1, idx2 unsigned, threshold
///   float) and a vector of leaf matrices 2n x 1), the anchor indices (vector of vectors of
///   unsigned) and the deltas (vector of vectors of (x, y) floats).
/// Hardening: every count is checked against the bytes left before anything is allocated (each
/// element needs at least two bytes), sizes must agree (leaves = splits + 1 = a power of two, every
/// leaf 2n long, anchors < n, split indices < the level's feature count, one tree depth, tree count
/// and feature count for the whole model) and every float must be finite.
package enum ShapePredictorReader {
    /// At most this many landmarks (dlib's published models have 5 and 68; 194 is the largest in use).
    package static let maximumParts = 10_000

    /// Reads the model file at `path` (memory-mapped, never fully copied).
    package static func read(contentsOfFile path: String) throws(ShapePredictorError) -> ShapePredictorModel {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) } catch {
            throw ShapePredictorError(path: path, offset: 0, message: "cannot read: \(RegularFile.reason(error))")
        }
        return try read(data, path: path)
    }

    /// Reads a model from bytes; `path` only names it in errors.
    package static func read(_ data: Data, path: String = "model") throws(ShapePredictorError) -> ShapePredictorModel {
        let result: Result<ShapePredictorModel, ShapePredictorError> = data.withUnsafeBytes { raw in
            var stream = DlibStream(bytes: raw, path: path)
            do throws(ShapePredictorError) { return .success(try parse(&stream)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    static func parse(_ stream: inout DlibStream) throws(ShapePredictorError) -> ShapePredictorModel {
        let version = try stream.signed(maxBytes: 4)
        guard version == 1 else { throw stream.failure("shape_predictor version \(version), expected 1") }
        let shape = try readShape(&stream, parts: nil, what: "initial shape")
        let parts = shape.count / 2
        var forests = try ForestReader(parts: parts, stream: &stream)
        try forests.readAll(&stream)
        let (features, anchors) = try readAnchors(&stream, levels: forests.levels, parts: parts)
        let deltas = try readDeltas(&stream, levels: forests.levels, features: features)
        if let bad = forests.firstIndex.indices.first(where: {
            Int(forests.firstIndex[$0]) >= features || Int(forests.secondIndex[$0]) >= features
        }) {
            throw stream.failure(
                "split \(bad) compares feature pixels \(forests.firstIndex[bad]) and \(forests.secondIndex[bad]); "
                    + "a level has \(features)")
        }
        return ShapePredictorModel(
            parts: parts, initialShape: shape, levels: forests.levels, treesPerLevel: forests.treesPerLevel,
            splitsPerTree: forests.splitsPerTree, featuresPerLevel: features, splitFirst: forests.firstIndex,
            splitSecond: forests.secondIndex, splitThreshold: forests.thresholds, leafValues: forests.leaves,
            anchors: anchors, deltas: deltas)
    }

    /// A 2n x 1 float matrix: the initial shape (`parts` nil: any even length up to the maximum) or
    /// a leaf (`parts` given: exactly 2 x parts long), appended to `into` when given.
    static func readShape(_ stream: inout DlibStream, parts: Int?, what: String) throws(ShapePredictorError) -> [Float]
    {
        var values: [Float] = []
        try readShape(&stream, parts: parts, what: what, into: &values)
        return values
    }

    static func readShape(
        _ stream: inout DlibStream, parts: Int?, what: String, into values: inout [Float]
    ) throws(ShapePredictorError) {
        let rows = try shapeRows(&stream, parts: parts, what: what)
        let start = values.count
        values.append(contentsOf: repeatElement(0, count: rows))
        try values.withUnsafeMutableBufferPointer { (target) throws(ShapePredictorError) in
            try stream.finiteFloats(rows, into: target.baseAddress! + start, what: what)
        }
    }

    /// The row count of a 2n x 1 float matrix, checked (2 x `parts` when given, else even and at
    /// most 2 x ``maximumParts``) and known to fit in the bytes left.
    static func shapeRows(_ stream: inout DlibStream, parts: Int?, what: String) throws(ShapePredictorError) -> Int {
        let rows = abs(try stream.signed(maxBytes: 8)), columns = abs(try stream.signed(maxBytes: 8))
        guard columns == 1, rows > 0, rows % 2 == 0, rows / 2 <= maximumParts else {
            throw stream.failure("\(what) is a \(rows) x \(columns) matrix, expected 2n x 1")
        }
        if let parts, rows != 2 * parts {
            throw stream.failure("\(what) has \(rows) values, the shape has \(2 * parts)")
        }
        guard Int(rows) * 4 <= stream.remaining else { // a float takes at least 4 bytes
            throw stream.failure("\(what) needs \(rows) values, only \(stream.remaining) bytes left")
        }
        return Int(rows)
    }

    /// The anchor landmark of every feature pixel, level by level: (features per level, flat anchors).
    static func readAnchors(
        _ stream: inout DlibStream, levels: Int, parts: Int
    ) throws(ShapePredictorError) -> (Int, [Int32]) {
        guard try stream.count(minimumBytes: 1, what: "anchor levels") == levels else {
            throw stream.failure("anchor indices are not given for each of the \(levels) levels")
        }
        var features = 0
        var anchors: [Int32] = []
        for level in 0..<levels {
            let count = try stream.count(minimumBytes: 2, what: "anchor indices")
            if level == 0 {
                features = count
                anchors.reserveCapacity(levels * count)
            } else if count != features {
                throw stream.failure("level \(level) has \(count) feature pixels, level 0 has \(features)")
            }
            for _ in 0..<count {
                let anchor = try stream.unsigned()
                guard anchor < UInt64(parts) else {
                    throw stream.failure("anchor landmark \(anchor), the shape has \(parts)")
                }
                anchors.append(Int32(anchor))
            }
        }
        return (features, anchors)
    }

    /// The offset of every feature pixel from its anchor in the mean shape, flat (x, y) pairs.
    static func readDeltas(_ stream: inout DlibStream, levels: Int, features: Int) throws(ShapePredictorError)
        -> [Float]
    {
        guard try stream.count(minimumBytes: 1, what: "delta levels") == levels else {
            throw stream.failure("feature offsets are not given for each of the \(levels) levels")
        }
        var deltas: [Float] = []
        deltas.reserveCapacity(2 * levels * features)
        for level in 0..<levels {
            guard try stream.count(minimumBytes: 4, what: "feature offsets") == features else {
                throw stream.failure("level \(level) has a different number of offsets than anchors (\(features))")
            }
            let start = deltas.count
            deltas.append(contentsOf: repeatElement(0, count: 2 * features))
            try deltas.withUnsafeMutableBufferPointer { (target) throws(ShapePredictorError) in
                try stream.finiteFloats(2 * features, into: target.baseAddress! + start, what: "feature offset")
            }
        }
        return deltas
    }
}

/// The forests of every cascade level, read tree by tree into flat arrays.
struct ForestReader {
    let parts: Int
    let levels: Int
    var treesPerLevel = 0
    var splitsPerTree = -1
    var firstIndex: [Int32] = []
    var secondIndex: [Int32] = []
    var thresholds: [Float] = []
    /// Every leaf value, allocated once the first tree has given the model's size.
    var leaves: [Float] = []
    var leafCount = 0

    init(parts: Int, stream: inout DlibStream) throws(ShapePredictorError) {
        self.parts = parts
        levels = try stream.count(minimumBytes: 1, what: "cascade levels")
        guard levels > 0 else { throw stream.failure("the model has no cascade levels") }
    }

    mutating func readAll(_ stream: inout DlibStream) throws(ShapePredictorError) {
        for level in 0..<levels {
            let trees = try stream.count(minimumBytes: 2, what: "trees")
            if level == 0 {
                guard trees > 0 else { throw stream.failure("level 0 has no trees") }
                treesPerLevel = trees
            } else if trees != treesPerLevel {
                throw stream.failure("level \(level) has \(trees) trees, level 0 has \(treesPerLevel)")
            }
            for _ in 0..<trees { try readTree(&stream) }
        }
    }

    /// One tree: its splits, then its leaves. The first tree fixes the depth and, once the sizes
    /// are known to fit in the bytes left, the capacity of every flat array.
    mutating func readTree(_ stream: inout DlibStream) throws(ShapePredictorError) {
        let splits = try stream.count(minimumBytes: 8, what: "splits")
        if splitsPerTree < 0 {
            guard (splits + 1) & splits == 0 else {
                throw stream.failure("a tree has \(splits) splits; a full tree has 2^depth - 1")
            }
            splitsPerTree = splits
            try reserve(&stream)
        } else if splits != splitsPerTree {
            throw stream.failure("a tree has \(splits) splits, the first has \(splitsPerTree) (one depth per model)")
        }
        for _ in 0..<splits {
            firstIndex.append(try featureIndex(&stream))
            secondIndex.append(try featureIndex(&stream))
            thresholds.append(try stream.finiteFloat("split threshold"))
        }
        guard try stream.count(minimumBytes: 4, what: "leaves") == splits + 1 else {
            throw stream.failure("a tree with \(splits) splits must have \(splits + 1) leaves")
        }
        let length = 2 * parts
        for _ in 0...splits {
            _ = try ShapePredictorReader.shapeRows(&stream, parts: parts, what: "leaf")
            let start = leafCount
            try leaves.withUnsafeMutableBufferPointer { (target) throws(ShapePredictorError) in
                try stream.finiteFloats(length, into: target.baseAddress! + start, what: "leaf")
            }
            leafCount += length
        }
    }

    private func featureIndex(_ stream: inout DlibStream) throws(ShapePredictorError) -> Int32 {
        let index = try stream.unsigned()
        guard index < UInt64(Int32.max) else { throw stream.failure("feature pixel index \(index) out of range") }
        return Int32(index)
    }

    /// Capacity for the whole model, after checking it can be in the bytes left: each tree needs at
    /// least 8 bytes per split and 4 + 4 x 2n per leaf (the smallest encodings).
    private mutating func reserve(_ stream: inout DlibStream) throws(ShapePredictorError) {
        let leavesPerTree = splitsPerTree + 1
        let perTree = Self.product([leavesPerTree, 4 + 8 * parts]).map { $0 + 8 * splitsPerTree + 4 }
        guard let trees = Self.product([levels, treesPerLevel]), let perTree,
            let bytes = Self.product([trees, perTree]), bytes <= stream.remaining + perTree
        else {
            throw stream.failure(
                "\(levels) levels x \(treesPerLevel) trees of depth log2(\(leavesPerTree)) cannot fit in the "
                    + "\(stream.remaining) bytes left")
        }
        firstIndex.reserveCapacity(trees * splitsPerTree)
        secondIndex.reserveCapacity(trees * splitsPerTree)
        thresholds.reserveCapacity(trees * splitsPerTree)
        leaves = [Float](repeating: 0, count: trees * leavesPerTree * 2 * parts)
    }

    /// The product of non-negative factors, nil on overflow.
    static func product(_ factors: [Int]) -> Int? {
        var result = 1
        for factor in factors {
            let (value, overflow) = result.multipliedReportingOverflow(by: factor)
            if overflow { return nil }
            result = value
        }
        return result
    }
}

/// A cursor over dlib's portable encoding; every read checks the bytes left first.
struct DlibStream {
    let bytes: UnsafeRawBufferPointer
    let path: String
    var offset = 0

    init(bytes: UnsafeRawBufferPointer, path: String) {
        self.bytes = bytes
        self.path = path
    }

    var remaining: Int { bytes.count - offset }

    func failure(_ message: String) -> ShapePredictorError {
        ShapePredictorError(path: path, offset: offset, message: message)
    }

    /// The value bytes after a control byte of `size` (1...maxBytes), little-endian.
    private mutating func magnitude(size: Int, maxBytes: Int) throws(ShapePredictorError) -> UInt64 {
        guard size >= 1, size <= maxBytes else {
            throw failure("integer of \(size) bytes where at most \(maxBytes) fit (not a dlib model?)")
        }
        guard size <= remaining else { throw failure("file ends inside an integer") }
        var value: UInt64 = 0
        for i in stride(from: size - 1, through: 0, by: -1) { value = value << 8 | UInt64(bytes[offset + i]) }
        offset += size
        return value
    }

    /// An unsigned integer (dlib masks the control byte with 0x8F: a set sign bit makes it too long).
    mutating func unsigned(maxBytes: Int = 8) throws(ShapePredictorError) -> UInt64 {
        guard remaining > 0 else { throw failure("file ends where an integer was expected") }
        let control = Int(bytes[offset] & 0x8F)
        offset += 1
        return try magnitude(size: control, maxBytes: maxBytes)
    }

    /// A signed integer of at most `maxBytes` bytes.
    mutating func signed(maxBytes: Int) throws(ShapePredictorError) -> Int64 {
        guard remaining > 0 else { throw failure("file ends where an integer was expected") }
        let control = bytes[offset]
        offset += 1
        let value = try magnitude(size: Int(control & 0x0F), maxBytes: maxBytes)
        guard value <= UInt64(Int64.max) else { throw failure("signed integer out of range") }
        return control & 0x80 != 0 ? -Int64(value) : Int64(value)
    }

    /// A vector's element count, refused when `minimumBytes` per element cannot fit in the bytes left.
    mutating func count(minimumBytes: Int, what: String) throws(ShapePredictorError) -> Int {
        let value = try unsigned()
        guard value <= UInt64(remaining / max(1, minimumBytes)) else {
            throw failure("\(value) \(what) cannot fit in the \(remaining) bytes left")
        }
        return Int(value)
    }

    /// A float in dlib's (mantissa, exponent) encoding, converted as dlib converts to float:
    /// ldexp((float) mantissa, exponent).
    mutating func float() throws(ShapePredictorError) -> Float {
        guard remaining > 0, bytes[offset] & 0x70 == 0 else {
            throw failure("float in dlib's old ASCII encoding (or not a float); re-save the model with dlib 19")
        }
        let mantissa = try signed(maxBytes: 8), exponent = try signed(maxBytes: 2)
        switch exponent {
        case 32000: return .infinity
        case 32001: return -.infinity
        case 32002: return .nan
        default: return ldexpf(Float(mantissa), Int32(exponent))
        }
    }

    /// `count` finite floats into `target`: the loop the model's 16 million leaf values go
    /// through, on raw bytes (the same decoding as ``float()``, bounds checked per integer).
    mutating func finiteFloats(
        _ count: Int, into target: UnsafeMutablePointer<Float>, what: String
    ) throws(ShapePredictorError) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw failure("file ends where a float was expected")
        }
        let end = bytes.count
        var at = offset
        for k in 0..<count {
            guard at < end, base[at] & 0x70 == 0 else {
                offset = at
                throw failure("\(what): not a float in dlib's binary encoding")
            }
            let mantissaControl = base[at], mantissaSize = Int(mantissaControl & 0x0F)
            let exponentAt = at + 1 + mantissaSize
            guard mantissaSize >= 1, mantissaSize <= 8, exponentAt < end else {
                offset = at
                throw failure("\(what): float mantissa of \(mantissaSize) bytes")
            }
            let exponentControl = base[exponentAt], exponentSize = Int(exponentControl & 0x0F)
            guard exponentSize >= 1, exponentSize <= 2, exponentAt + exponentSize < end else {
                offset = exponentAt
                throw failure("\(what): float exponent of \(exponentSize) bytes")
            }
            var mantissa: UInt64 = 0, exponent = 0
            for i in stride(from: mantissaSize, through: 1, by: -1) { mantissa = mantissa << 8 | UInt64(base[at + i]) }
            for i in stride(from: exponentSize, through: 1, by: -1) {
                exponent = exponent << 8 | Int(base[exponentAt + i])
            }
            if exponentControl & 0x80 != 0 { exponent = -exponent }
            guard exponent < 32000, mantissa <= UInt64(Int64.max) else {
                offset = at
                throw failure("\(what) is not a finite float")
            }
            let magnitude = Float(mantissa)
            let value = ldexpf(mantissaControl & 0x80 != 0 ? -magnitude : magnitude, Int32(exponent))
            // A finite encoding can still overflow a float (mantissa x 2^exponent beyond 3.4e38).
            guard value.isFinite else {
                offset = at
                throw failure("\(what) overflows a float (\(mantissa) x 2^\(exponent))")
            }
            target[k] = value
            at = exponentAt + 1 + exponentSize
        }
        offset = at
    }

    mutating func finiteFloat(_ what: String) throws(ShapePredictorError) -> Float {
        let value = try float()
        guard value.isFinite else { throw failure("\(what) is \(value)") }
        return value
    }
}
