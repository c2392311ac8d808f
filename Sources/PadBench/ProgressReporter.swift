#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress display on standard error: done/total, rate, ETA and failures.
///
/// ```swift
/// var progress = ProgressReporter(total: samples.count, label: "measure", enabled: !quiet)
/// progress.advance(failed: false)
/// progress.finish()
/// ```
///
/// It draws only when standard error is a terminal and `enabled` is true, so `--quiet`, CI and
/// redirected runs stay silent; it redraws at most ten times a second.
package struct ProgressReporter {
    package let total: Int
    package let label: String
    package let isActive: Bool
    package private(set) var done = 0
    package private(set) var failed = 0
    private let start = MonotonicClock.nanoseconds()
    private var lastDraw: UInt64 = 0

    package init(total: Int, label: String, enabled: Bool) {
        self.total = total
        self.label = label
        self.isActive = enabled && isatty(STDERR_FILENO) == 1
    }

    package mutating func advance(failed didFail: Bool) {
        done += 1
        if didFail { failed += 1 }
        guard isActive else { return }
        let now = MonotonicClock.nanoseconds()
        if now - lastDraw >= 100_000_000 || done == total {
            lastDraw = now
            draw(now: now)
        }
    }

    package mutating func finish() {
        guard isActive else { return }
        draw(now: MonotonicClock.nanoseconds())
        Self.writeToStandardError("\n")
    }

    private func draw(now: UInt64) {
        let seconds = Double(now - start) / 1e9
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let remaining = rate > 0 ? Double(total - done) / rate : 0
        let percent = total > 0 ? 100 * Double(done) / Double(total) : 100
        let eta = Int(remaining.rounded())
        let line =
            "\(label) \(done)/\(total) \(Self.fixed(percent, 1))%  \(Self.fixed(rate, 1)) img/s  "
            + "ETA \(eta / 60):\(eta % 60 < 10 ? "0" : "")\(eta % 60)  failed \(failed)"
        Self.writeToStandardError("\r\u{1B}[K" + line)
    }

    static func writeToStandardError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = "\(rounded)"
        if let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        } else if digits > 0 {
            text += "." + String(repeating: "0", count: digits)
        }
        return text
    }
}
