import Foundation
import Testing

@testable import PadArchive
import TestSupport

/// ``NumberText`` (the number formatting of `samples.csv` and `curves.csv`) and ``CSVBlock``
/// write exactly the bytes of the plain String formatting they replace.
@Suite struct NumberTextTests {
    /// What padbench wrote before the fast path: ``CSVFormat/number(_:)`` as a String.
    static func plain(_ value: Double) -> String {
        if value.isNaN { return "" }
        if value.isInfinite { return value > 0 ? "inf" : "-inf" }
        if value == value.rounded(.towardZero), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    static func written(_ value: Double) -> String {
        var bytes = [UInt8](repeating: 0, count: NumberText.maximumLength)
        let n = bytes.withUnsafeMutableBufferPointer { NumberText.write(value, to: $0.baseAddress!) }
        return String(decoding: bytes[0..<n], as: UTF8.self)
    }

    /// Values next to every bound of the short path and of Swift's notation switches (1e-8,
    /// 1e-5, 1e-4 where `0.0001` becomes `9.99e-05`, 1e15 where integers stop, 2^53), signed
    /// zeros, infinities, NaN, subnormals and the extremes.
    static var edgeCases: [Double] {
        var values: [Double] = [
            0, -0.0, .infinity, -.infinity, .nan, -.nan, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
            .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 0.1, 0.2, 0.30000000000000004,
            1.0 / 3, 2.0 / 3, 123456789012345.6, 99999999999999.9, 1.845584192, 2e-7, 1e-9, 9.99e-5, 0.5, -1.5,
        ]
        for bound in [1e-8, 1e-5, 1e-4, 1e-3, 0.1, 1, 10, 1e14, 1e15, 9_007_199_254_740_992, 1e16] {
            var down = bound, up = bound
            for _ in 0..<200 {
                values += [down, -down, up, -up]
                down = down.nextDown
                up = up.nextUp
            }
        }
        return values
    }

    @Test func edgeCasesAreWrittenAsBefore() {
        let mismatches = Self.edgeCases.filter { Self.written($0) != Self.plain($0) }
        #expect(mismatches.isEmpty, "first: \(mismatches.prefix(5).map { "\($0.bitPattern)" })")
        #expect(Self.written(9.99e-5) == "9.99e-05" && Self.written(0.0001) == "0.0001")
        #expect(Self.written(-1.25e-7) == "-1.25e-07" && Self.written(-0.0) == "0" && Self.written(.nan) == "")
        #expect(Self.written(123.0625) == "123.0625" && Self.written(1.5e15) == "1500000000000000.0")
    }

    /// Decimals of 1 to 17 significant digits at exponents -12 ... 16 and their neighbours, rates
    /// k/n as curves have them, and random bit patterns (fixed seed): the same text as before,
    /// and the short path answers for the short ones (so it is the path the files take).
    @Test func randomValuesAreWrittenAsBefore() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
        var values: [Double] = []
        for _ in 0..<100_000 {
            let digits = Int(next() >> 60) + 1
            var m: UInt64 = 0
            for _ in 0..<min(digits, 17) { m = m * 10 + (next() >> 33) % 10 }
            let exponent = Int((next() >> 40) % 29) - 12
            if let d = Double("\(m)e\(exponent - digits)") { values += [d, -d, d.nextUp, d.nextDown] }
            values.append(Double(bitPattern: next()))
            let n = Int((next() >> 40) % 10_000_000) + 1
            values.append(Double(Int(next() >> 40) % (n + 1)) / Double(n))
        }
        var mismatches: [Double] = [], short = 0
        var scratch = [UInt8](repeating: 0, count: NumberText.maximumLength)
        for value in values {
            if Self.written(value) != Self.plain(value) { mismatches.append(value) }
            let answered = scratch.withUnsafeMutableBufferPointer { NumberText.writeShort(value, to: $0.baseAddress!) }
            if answered != nil { short += 1 }
        }
        #expect(mismatches.isEmpty, "first: \(mismatches.prefix(5).map { "\($0.bitPattern)" })")
        #expect(short > values.count / 4)
        // Scores as files hold them and every rate k / 2,500,000 take the short path.
        for k in stride(from: 1, to: 2_500_000, by: 997) {
            let rate = Double(k) / 2_500_000
            let answered = scratch.withUnsafeMutableBufferPointer { NumberText.writeShort(rate, to: $0.baseAddress!) }
            #expect(answered != nil, "\(rate)")
            if answered == nil { break }
        }
    }

    /// Fields with commas, quotes, CR, LF, non-ASCII text, empty fields, fields longer than the
    /// block, and numbers at the end of a nearly full block: the bytes of `CSVFormat.appendField`
    /// and `appendNumber` into an array, across flushes.
    @Test func blockWritesTheBytesOfTheArrayAppenders() throws {
        let fields = [
            "plain", "", "a,b", "say \"hi\"", "line\nbreak", "cr\rhere", "Zoë/ångström/数据", "\"", ",",
            String(repeating: "x,\"y", count: 40),
        ]
        let numbers: [Double] = [0, -0.0, 1.845584192, -2e-7, .infinity, -.infinity, .nan, 1.0 / 3, 1e300]
        let path = TestFolder.root + "/padbench-block-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try CSVWriter(path: path)
        let block = CSVBlock(writer: writer, capacity: 70)
        var expected: [UInt8] = []
        for round in 0..<30 {
            for field in fields {
                var bytes = field
                try bytes.withUTF8 { try block.appendField(utf8: $0) }
                CSVFormat.appendField(field, to: &expected)
                try block.append(byte: UInt8(ascii: ","))
                expected.append(UInt8(ascii: ","))
            }
            let number = numbers[round % numbers.count]
            try block.appendNumber(number)
            CSVFormat.appendNumber(number, to: &expected)
            try block.append(byte: 0x0A)
            expected.append(0x0A)
        }
        try block.flush()
        try writer.close()
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == expected)
    }
}

/// The bounded entry points check their room: a buffer shorter than the longest number stops the
/// program before anything is written past its end, and one of exactly that length suffices.
@Suite struct BoundedNumberTextTests {
    @Test func aBufferShorterThanTheLongestNumberIsRefused() async {
        await #expect(processExitsWith: .failure) {
            var short = [UInt8](repeating: 0, count: NumberText.maximumLength - 1)
            _ = short.withUnsafeMutableBufferPointer { NumberText.write(0.25, into: $0) }
        }
        var exact = [UInt8](repeating: 0, count: NumberText.maximumLength)
        let n = exact.withUnsafeMutableBufferPointer { NumberText.write(-2.2250738585072014e-308, into: $0) }
        #expect(String(decoding: exact[..<n], as: UTF8.self) == "-2.2250738585072014e-308")
    }
}
