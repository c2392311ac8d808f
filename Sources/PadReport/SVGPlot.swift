import Foundation

/// Small, dependency-free SVG plots for the HTML report: line plots (linear or normal-deviate axes),
/// bar charts. Coordinates are computed here; styling is inline so the file stands alone.
///
/// ```swift
/// var plot = SVGPlot(title: "DET", xLabel: "APCER", yLabel: "BPCER", scale: .probit)
/// plot.addLine(name: "print", points: [(0.01, 0.2), (0.05, 0.1)], color: SVGPlot.palette[0])
/// let svg = plot.render()
/// ```
public struct SVGPlot {
    public enum Scale { case linear, probit }
    public struct Series { var name: String; var points: [(Double, Double)]; var color: String; var dashed: Bool }
    public struct Marker { var x: Double; var y: Double; var label: String }
    public struct VerticalLine { var x: Double; var label: String; var color: String }

    public static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]

    public var title: String
    public var xLabel: String
    public var yLabel: String
    public var scale: Scale
    public var width = 560.0, height = 360.0
    var series: [Series] = []
    var markers: [Marker] = []
    var verticals: [VerticalLine] = []

    public init(title: String, xLabel: String, yLabel: String, scale: Scale = .linear) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.scale = scale
    }

    public mutating func addLine(name: String, points: [(Double, Double)], color: String, dashed: Bool = false) {
        series.append(Series(name: name, points: points.filter { $0.0.isFinite && $0.1.isFinite }, color: color, dashed: dashed))
    }
    public mutating func addMarker(x: Double, y: Double, label: String) { markers.append(Marker(x: x, y: y, label: label)) }
    public mutating func addVertical(x: Double, label: String, color: String = "#555") { if x.isFinite { verticals.append(VerticalLine(x: x, label: label, color: color)) } }

    /// Number of drawn data points (tests check that every plot has data).
    public var pointCount: Int { series.reduce(0) { $0 + $1.points.count } }

    /// Inverse of the standard normal CDF (Acklam's rational approximation, relative error < 1.2e-9),
    /// the axis transform of DET plots (NIST, ISO/IEC 19795-1).
    public static func probit(_ p: Double) -> Double {
        let p = min(max(p, 1e-6), 1 - 1e-6)
        let a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00]
        let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01]
        let c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        if p < low {
            let q = (-2 * log(p)).squareRoot()
            return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        if p > 1 - low {
            let q = (-2 * log(1 - p)).squareRoot()
            return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        let q = p - 0.5, r = q * q
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    }

    public func render() -> String {
        let left = 62.0, right = 16.0, top = 30.0, bottom = 46.0
        let plotW = width - left - right, plotH = height - top - bottom
        var xs = series.flatMap { $0.points.map(\.0) } + verticals.map(\.x), ys = series.flatMap { $0.points.map(\.1) }
        let ticks: [Double]
        var xRange: (Double, Double), yRange: (Double, Double)
        func tx(_ v: Double) -> Double { scale == .probit ? Self.probit(v) : v }
        if scale == .probit {
            ticks = [0.001, 0.01, 0.05, 0.1, 0.2, 0.4]
            xRange = (Self.probit(0.0005), Self.probit(0.6)); yRange = xRange
        } else {
            ticks = []
            if xs.isEmpty { xs = [0, 1] }
            if ys.isEmpty { ys = [0, 1] }
            xRange = (xs.min()!, xs.max()!); yRange = (min(0, ys.min()!), max(ys.max()!, 1e-12))
            if xRange.0 == xRange.1 { xRange = (xRange.0 - 1, xRange.1 + 1) }
        }
        func px(_ v: Double) -> Double { left + (min(max(tx(v), xRange.0), xRange.1) - xRange.0) / (xRange.1 - xRange.0) * plotW }
        func py(_ v: Double) -> Double { top + plotH - (min(max(tx(v), yRange.0), yRange.1) - yRange.0) / (yRange.1 - yRange.0) * plotH }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(Self.escape(title))\">\n"
        svg += "<text x=\"\(f(width / 2))\" y=\"18\" text-anchor=\"middle\" font-size=\"13\" font-weight=\"bold\">\(Self.escape(title))</text>\n"
        svg += "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(plotW))\" height=\"\(f(plotH))\" fill=\"none\" stroke=\"#999\"/>\n"
        // Ticks.
        if scale == .probit {
            for t in ticks {
                let label = t < 0.01 ? "\(t * 100)%" : "\(Int((t * 100).rounded()))%"
                svg += "<line x1=\"\(f(px(t)))\" y1=\"\(f(top))\" x2=\"\(f(px(t)))\" y2=\"\(f(top + plotH))\" stroke=\"#eee\"/>"
                svg += "<text x=\"\(f(px(t)))\" y=\"\(f(top + plotH + 14))\" text-anchor=\"middle\" font-size=\"10\">\(label)</text>\n"
                svg += "<line x1=\"\(f(left))\" y1=\"\(f(py(t)))\" x2=\"\(f(left + plotW))\" y2=\"\(f(py(t)))\" stroke=\"#eee\"/>"
                svg += "<text x=\"\(f(left - 4))\" y=\"\(f(py(t) + 3))\" text-anchor=\"end\" font-size=\"10\">\(label)</text>\n"
            }
        } else {
            for k in 0...4 {
                let xv = xRange.0 + (xRange.1 - xRange.0) * Double(k) / 4, yv = yRange.0 + (yRange.1 - yRange.0) * Double(k) / 4
                svg += "<text x=\"\(f(px(xv)))\" y=\"\(f(top + plotH + 14))\" text-anchor=\"middle\" font-size=\"10\">\(Self.number(xv))</text>"
                svg += "<line x1=\"\(f(left))\" y1=\"\(f(py(yv)))\" x2=\"\(f(left + plotW))\" y2=\"\(f(py(yv)))\" stroke=\"#eee\"/>"
                svg += "<text x=\"\(f(left - 4))\" y=\"\(f(py(yv) + 3))\" text-anchor=\"end\" font-size=\"10\">\(Self.number(yv))</text>\n"
            }
        }
        svg += "<text x=\"\(f(left + plotW / 2))\" y=\"\(f(height - 8))\" text-anchor=\"middle\" font-size=\"11\">\(Self.escape(xLabel))</text>\n"
        svg += "<text x=\"14\" y=\"\(f(top + plotH / 2))\" text-anchor=\"middle\" font-size=\"11\" transform=\"rotate(-90 14 \(f(top + plotH / 2)))\">\(Self.escape(yLabel))</text>\n"
        for v in verticals {
            svg += "<line x1=\"\(f(px(v.x)))\" y1=\"\(f(top))\" x2=\"\(f(px(v.x)))\" y2=\"\(f(top + plotH))\" stroke=\"\(v.color)\" stroke-dasharray=\"4 3\"/>"
            svg += "<text x=\"\(f(px(v.x) + 3))\" y=\"\(f(top + 12))\" font-size=\"10\" fill=\"\(v.color)\">\(Self.escape(v.label))</text>\n"
        }
        for s in series where !s.points.isEmpty {
            let path = s.points.map { "\(f(px($0.0))),\(f(py($0.1)))" }.joined(separator: " ")
            svg += "<polyline fill=\"none\" stroke=\"\(s.color)\" stroke-width=\"1.8\"\(s.dashed ? " stroke-dasharray=\"5 3\"" : "") points=\"\(path)\"/>\n"
        }
        for m in markers {
            svg += "<circle cx=\"\(f(px(m.x)))\" cy=\"\(f(py(m.y)))\" r=\"4\" fill=\"none\" stroke=\"#000\"/>"
            svg += "<text x=\"\(f(px(m.x) + 6))\" y=\"\(f(py(m.y) - 6))\" font-size=\"10\">\(Self.escape(m.label))</text>\n"
        }
        // Legend.
        for (i, s) in series.enumerated() {
            let y = top + 14 + Double(i) * 14
            svg += "<line x1=\"\(f(left + plotW - 120))\" y1=\"\(f(y - 4))\" x2=\"\(f(left + plotW - 100))\" y2=\"\(f(y - 4))\" stroke=\"\(s.color)\" stroke-width=\"2\"\(s.dashed ? " stroke-dasharray=\"5 3\"" : "")/>"
            svg += "<text x=\"\(f(left + plotW - 96))\" y=\"\(f(y))\" font-size=\"10\">\(Self.escape(s.name))</text>\n"
        }
        return svg + "</svg>"
    }

    /// Horizontal grouped bars (latency): one group per label, one bar per value.
    public static func bars(title: String, unit: String, groups: [(label: String, values: [(name: String, value: Double)])]) -> String {
        let rowHeight = 14.0, groupGap = 10.0, left = 110.0, width = 560.0
        let maxValue = max(groups.flatMap { $0.values.map(\.value) }.filter(\.isFinite).max() ?? 1, 1e-9)
        let barCount = groups.first?.values.count ?? 1
        let height = 40 + Double(groups.count) * (Double(barCount) * rowHeight + groupGap) + 20
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(escape(title))\">\n"
        svg += "<text x=\"\(Int(width / 2))\" y=\"18\" text-anchor=\"middle\" font-size=\"13\" font-weight=\"bold\">\(escape(title))</text>\n"
        var y = 34.0
        for group in groups {
            svg += "<text x=\"\(Int(left - 6))\" y=\"\(String(format: "%.1f", y + rowHeight))\" text-anchor=\"end\" font-size=\"11\">\(escape(group.label))</text>\n"
            for (k, bar) in group.values.enumerated() {
                let w = bar.value.isFinite ? (width - left - 90) * bar.value / maxValue : 0
                svg += "<rect x=\"\(Int(left))\" y=\"\(String(format: "%.1f", y))\" width=\"\(String(format: "%.1f", max(w, 0.5)))\" height=\"\(Int(rowHeight - 3))\" fill=\"\(palette[k % palette.count])\"/>"
                svg += "<text x=\"\(String(format: "%.1f", left + w + 4))\" y=\"\(String(format: "%.1f", y + rowHeight - 4))\" font-size=\"10\">\(escape(bar.name)) \(number(bar.value)) \(escape(unit))</text>\n"
                y += rowHeight
            }
            y += groupGap
        }
        return svg + "</svg>"
    }

    static func number(_ v: Double) -> String {
        if !v.isFinite { return v.isNaN ? "n/a" : (v > 0 ? "inf" : "-inf") }
        let a = abs(v)
        if a >= 1000 || (a < 0.01 && a > 0) { return String(format: "%.3g", v) }
        return String(format: a >= 100 ? "%.0f" : (a >= 10 ? "%.1f" : "%.3f"), v)
    }

    public static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
