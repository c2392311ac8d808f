import Foundation

/// Small, dependency-free SVG plots for the HTML report: line and step plots (linear or
/// normal-deviate axes), outline histograms, bar charts. Coordinates are computed here; styling is
/// inline so the file stands alone.
///
/// Example: `PadReportDocExamples.svgPlot`
/// in `Tests/PadReportTests/DocExamplesTests.swift` (compiled and run by `swift test`).
/// Readability rules: every text label (title, ticks, axis names, legend, markers, threshold
/// lines) gets a bounding box (width 0.62 x font size per character, height 1.2 x font size) and
/// is placed where it overlaps no other label: tick labels are thinned, the legend sits below
/// the plot, marker labels try positions around their point at growing distance (with a leader
/// line when moved away), and threshold-line labels stack down the top of the plot. Linear axes
/// get 1-2-5 ticks printed with one number of decimals; probit axes are in percent.
package struct SVGPlot {
    package enum Scale: Sendable { case linear, probit }
    /// How consecutive points are joined: straight lines, or exact steps (`stepHV`: horizontal
    /// then vertical; `stepVH`: vertical then horizontal).
    package enum Style: Sendable { case line, stepHV, stepVH }
    package struct Series {
        var name: String; var points: [(Double, Double)]; var color: String; var dashed: Bool; var style: Style
    }
    package struct Marker { var x: Double; var y: Double; var label: String; var color: String }
    package struct VerticalLine { var x: Double; var label: String; var color: String }
    /// A text label's box in SVG user units (tests check that no two overlap).
    package struct Box: Equatable, Sendable {
        package var x0: Double, y0: Double, x1: Double, y1: Double
        package func overlaps(_ o: Box) -> Bool { x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1 }
        /// The box with `d` more on the left and right (tick labels keep a gap).
        func widened(by d: Double) -> Box { Box(x0: x0 - d, y0: y0, x1: x1 + d, y1: y1) }
    }

    package static let palette = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
    ]
    static let charWidth = 0.62

    package var title: String
    package var xLabel: String
    package var yLabel: String
    package var scale: Scale
    /// Linear y axis printed as percent (error rates, fractions of a class).
    package var yPercent = false
    /// Lowest rate on probit axes (DET); the axes run from it to 99%.
    package var probitFloor = 0.0001
    /// Linear axes fixed to these ranges instead of fitted to the data (a ROC's unit square).
    package var fixedRanges: (x: (Double, Double), y: (Double, Double))?
    package var width = 600.0, height = 400.0
    var series: [Series] = []
    var markers: [Marker] = []
    var verticals: [VerticalLine] = []

    package init(title: String, xLabel: String, yLabel: String, scale: Scale = .linear) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.scale = scale
    }

    package mutating func addLine(
        name: String, points: [(Double, Double)], color: String, dashed: Bool = false, style: Style = .line
    ) {
        series.append(
            Series(
                name: name, points: points.filter { $0.0.isFinite && $0.1.isFinite }, color: color, dashed: dashed,
                style: style))
    }
    package mutating func addMarker(x: Double, y: Double, label: String, color: String = "#000") {
        if x.isFinite && y.isFinite { markers.append(Marker(x: x, y: y, label: label, color: color)) }
    }
    package mutating func addVertical(x: Double, label: String, color: String = "#555") {
        if x.isFinite { verticals.append(VerticalLine(x: x, label: label, color: color)) }
    }

    /// Number of drawn data points (tests check that every plot has data).
    package var pointCount: Int { series.reduce(0) { $0 + $1.points.count } }

    /// Inverse of the standard normal CDF (Acklam's rational approximation, relative error < 1.2e-9),
    /// the axis transform of DET plots (NIST, ISO/IEC 19795-1).
    package static func probit(_ p: Double) -> Double {
        let p = min(max(p, 1e-6), 1 - 1e-6)
        let a = [
            -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02,
            -3.066479806614716e+01, 2.506628277459239e+00,
        ]
        let b = [
            -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01,
            -1.328068155288572e+01,
        ]
        let c = [
            -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00,
            4.374664141464968e+00, 2.938163982698783e+00,
        ]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        if p < low {
            let q = (-2 * log(p)).squareRoot()
            return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        if p > 1 - low {
            let q = (-2 * log(1 - p)).squareRoot()
            return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        let q = p - 0.5, r = q * q
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    }

    /// The box of a text drawn at (x, y) (baseline) with an anchor, by the width rule above.
    package static func box(x: Double, y: Double, text: String, fontSize: Double, anchor: String) -> Box {
        let w = Double(text.count) * fontSize * charWidth
        let x0 = anchor == "middle" ? x - w / 2 : (anchor == "end" ? x - w : x)
        return Box(x0: x0, y0: y - fontSize * 0.95, x1: x0 + w, y1: y + fontSize * 0.25)
    }

    /// Texts placed so far; `place` refuses a box that overlaps one of them.
    struct Labels {
        var boxes: [Box] = []
        var svg = ""
        mutating func add(
            _ text: String, x: Double, y: Double, size: Double = 10, anchor: String = "start", color: String = "#222",
            bold: Bool = false, halo: Bool = false
        ) {
            boxes.append(SVGPlot.box(x: x, y: y, text: text, fontSize: size, anchor: anchor))
            svg +=
                "<text x=\"\(SVGPlot.f(x))\" y=\"\(SVGPlot.f(y))\" "
                + "font-size=\"\(SVGPlot.f(size))\" text-anchor=\"\(anchor)\" fill=\"\(color)\""
                + (bold ? " font-weight=\"bold\"" : "")
                + (halo ? " stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\"" : "")
                + ">\(SVGPlot.escape(text))</text>\n"
        }
        func fits(_ b: Box, inside area: Box) -> Bool {
            b.x0 >= area.x0 && b.x1 <= area.x1 && b.y0 >= area.y0 && b.y1 <= area.y1
                && !boxes.contains { $0.overlaps(b) }
        }
    }

    static func f(_ v: Double) -> String { String(format: "%.1f", v) }

    /// 1-2-5 ticks covering [low, high], about `count` of them, and the decimals that print them all.
    package static func niceTicks(_ low: Double, _ high: Double, count: Int = 6) -> (ticks: [Double], decimals: Int) {
        guard high > low, low.isFinite, high.isFinite else { return ([low], 0) }
        let raw = (high - low) / Double(max(count - 1, 1))
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        // The 1-2-5 step whose tick count is closest to the one asked for.
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.min {
            abs((high - low) / $0 - Double(count - 1)) < abs((high - low) / $1 - Double(count - 1))
        }!
        let first = (low / step).rounded(.up), last = (high / step).rounded(.down)
        let ticks = stride(from: first, through: last + 1e-9, by: 1).map { $0 * step }
        return (ticks, max(0, Int(-log10(step).rounded(.down))))
    }

    static func tickText(_ v: Double, decimals: Int, percent: Bool) -> String {
        if percent { return String(format: "%.\(max(0, decimals - 2))f%%", v * 100 + 0) }
        return String(format: "%.\(decimals)f", abs(v) < 1e-12 ? 0 : v)
    }

    static func probitText(_ p: Double) -> String {
        let pct = p * 100
        return pct >= 1
            ? String(format: "%.0f%%", pct)
            : (pct >= 0.1 ? String(format: "%.1f%%", pct) : String(format: "%.2f%%", pct))
    }

    struct Frame {
        var left = 64.0, top = 34.0, plotW = 0.0, plotH = 0.0
        var xRange = (0.0, 1.0), yRange = (0.0, 1.0)
        var probit = false
        func tx(_ v: Double) -> Double { probit ? SVGPlot.probit(v) : v }
        func px(_ v: Double) -> Double {
            left + (min(max(tx(v), xRange.0), xRange.1) - xRange.0) / (xRange.1 - xRange.0) * plotW
        }
        func py(_ v: Double) -> Double {
            top + plotH - (min(max(tx(v), yRange.0), yRange.1) - yRange.0) / (yRange.1 - yRange.0) * plotH
        }
        var area: Box { Box(x0: left + 2, y0: top + 2, x1: left + plotW - 2, y1: top + plotH - 2) }
    }

    /// Legend rows below the plot: entries laid left to right, wrapped at the plot width.
    func legendRows(maxWidth: Double) -> [[(Int, Double)]] {
        var rows: [[(Int, Double)]] = [[]], used = 0.0
        for (i, s) in series.enumerated() where !s.points.isEmpty {
            let w = 26 + Double(s.name.count) * 10 * Self.charWidth + 14
            if used + w > maxWidth && !rows[rows.count - 1].isEmpty { rows.append([]); used = 0 }
            rows[rows.count - 1].append((i, used))
            used += w
        }
        return rows.filter { !$0.isEmpty }
    }

    func ranges() -> ((Double, Double), (Double, Double)) {
        if scale == .probit {
            let r = (Self.probit(probitFloor), Self.probit(0.99))
            return (r, r)
        }
        if let fixedRanges { return (fixedRanges.x, fixedRanges.y) }
        var xs = series.flatMap { $0.points.map(\.0) } + verticals.map(\.x) + markers.map(\.x)
        var ys = series.flatMap { $0.points.map(\.1) } + markers.map(\.y)
        if xs.isEmpty { xs = [0, 1] }
        if ys.isEmpty { ys = [0, 1] }
        // A percent axis whose rates are all 0 spans 0-1%: ticks of 1e-12 would not fit the margin.
        var x = (xs.min()!, xs.max()!), y = (min(0, ys.min()!), max(ys.max()!, yPercent ? 0.01 : 1e-12))
        if x.0 == x.1 { x = (x.0 - 1, x.1 + 1) }
        let pad = (x.1 - x.0) * 0.02
        x = (x.0 - pad, x.1 + pad)
        y.1 += (y.1 - y.0) * 0.08 // headroom for threshold labels
        return (x, y)
    }

    package func render() -> String {
        let legend = legendRows(maxWidth: width - 80)
        let totalHeight = height + Double(legend.count) * 16 + 8
        var frame = Frame()
        frame.plotW = width - frame.left - 18
        frame.plotH = height - frame.top - 50
        frame.probit = scale == .probit
        (frame.xRange, frame.yRange) = ranges()
        var labels = Labels()
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(totalHeight))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(totalHeight))\" "
            + "role=\"img\" aria-label=\"\(Self.escape(title))\">\n"
        labels.add(title, x: width / 2, y: 20, size: 13, anchor: "middle", bold: true)
        svg +=
            "<rect x=\"\(Self.f(frame.left))\" y=\"\(Self.f(frame.top))\" width=\"\(Self.f(frame.plotW))\" "
            + "height=\"\(Self.f(frame.plotH))\" fill=\"none\" stroke=\"#999\"/>\n"
        svg += axes(frame, &labels)
        labels.add(xLabel, x: frame.left + frame.plotW / 2, y: frame.top + frame.plotH + 34, size: 11, anchor: "middle")
        let yMid = frame.top + frame.plotH / 2
        svg +=
            "<text x=\"16\" y=\"\(Self.f(yMid))\" text-anchor=\"middle\" font-size=\"11\" "
            + "transform=\"rotate(-90 16 \(Self.f(yMid)))\">\(Self.escape(yLabel))</text>\n"
        svg += curves(frame)
        svg += verticalLines(frame, &labels)
        svg += markerLabels(frame, &labels)
        svg += legendSVG(legend, y: height + 8, &labels)
        return svg + labels.svg + "</svg>"
    }

    func axes(_ fr: Frame, _ labels: inout Labels) -> String {
        var svg = ""
        let bottom = fr.top + fr.plotH
        if scale == .probit {
            let all = [
                0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 0.98,
                0.99,
            ]
            let ticks = all.filter { $0 >= probitFloor * 0.999 }
            for t in ticks {
                svg += gridPair(
                    fr, x: fr.px(t), y: fr.py(t), xText: Self.probitText(t), yText: Self.probitText(t), &labels)
            }
            return svg
        }
        let (xt, xd) = Self.niceTicks(fr.xRange.0, fr.xRange.1)
        let (yt, yd) = Self.niceTicks(fr.yRange.0, fr.yRange.1)
        for t in xt {
            let x = fr.px(t), text = Self.tickText(t, decimals: xd, percent: false)
            let b = Self.box(x: x, y: bottom + 14, text: text, fontSize: 10, anchor: "middle").widened(by: 4)
            guard !labels.boxes.contains(where: { $0.overlaps(b) }), b.x1 <= width, b.x0 >= 0 else { continue }
            svg +=
                "<line x1=\"\(Self.f(x))\" y1=\"\(Self.f(fr.top))\" "
                + "x2=\"\(Self.f(x))\" y2=\"\(Self.f(bottom))\" stroke=\"#eee\"/>"
            labels.add(text, x: x, y: bottom + 14, anchor: "middle")
        }
        for t in yt {
            let y = fr.py(t), text = Self.tickText(t, decimals: yd, percent: yPercent)
            let b = Self.box(x: fr.left - 4, y: y + 3, text: text, fontSize: 10, anchor: "end")
            guard !labels.boxes.contains(where: { $0.overlaps(b) }) else { continue }
            svg +=
                "<line x1=\"\(Self.f(fr.left))\" y1=\"\(Self.f(y))\" "
                + "x2=\"\(Self.f(fr.left + fr.plotW))\" y2=\"\(Self.f(y))\" stroke=\"#eee\"/>"
            labels.add(text, x: fr.left - 4, y: y + 3, anchor: "end")
        }
        return svg
    }

    /// One probit tick on both axes (skipped on an axis where its label would overlap another).
    func gridPair(_ fr: Frame, x: Double, y: Double, xText: String, yText: String, _ labels: inout Labels) -> String {
        var svg = ""
        let bottom = fr.top + fr.plotH
        let bx = Self.box(x: x, y: bottom + 14, text: xText, fontSize: 10, anchor: "middle").widened(by: 4)
        if !labels.boxes.contains(where: { $0.overlaps(bx) }) {
            svg +=
                "<line x1=\"\(Self.f(x))\" y1=\"\(Self.f(fr.top))\" "
                + "x2=\"\(Self.f(x))\" y2=\"\(Self.f(bottom))\" stroke=\"#eee\"/>"
            labels.add(xText, x: x, y: bottom + 14, anchor: "middle")
        }
        let by = Self.box(x: fr.left - 4, y: y + 3, text: yText, fontSize: 10, anchor: "end")
        if !labels.boxes.contains(where: { $0.overlaps(by) }) {
            svg +=
                "<line x1=\"\(Self.f(fr.left))\" y1=\"\(Self.f(y))\" "
                + "x2=\"\(Self.f(fr.left + fr.plotW))\" y2=\"\(Self.f(y))\" stroke=\"#eee\"/>"
            labels.add(yText, x: fr.left - 4, y: y + 3, anchor: "end")
        }
        return svg
    }

    func curves(_ fr: Frame) -> String {
        var svg = ""
        for s in series where !s.points.isEmpty {
            var pts: [(Double, Double)] = [(fr.px(s.points[0].0), fr.py(s.points[0].1))]
            for k in s.points.indices.dropFirst() {
                let (x, y) = (fr.px(s.points[k].0), fr.py(s.points[k].1))
                switch s.style {
                case .line: break
                case .stepHV: pts.append((x, pts[pts.count - 1].1))
                case .stepVH: pts.append((pts[pts.count - 1].0, y))
                }
                pts.append((x, y))
            }
            let path = pts.map { "\(Self.f($0.0)),\(Self.f($0.1))" }.joined(separator: " ")
            svg +=
                "<polyline fill=\"none\" stroke=\"\(s.color)\" "
                + "stroke-width=\"1.8\"\(s.dashed ? " stroke-dasharray=\"5 3\"" : "") points=\"\(path)\"/>\n"
        }
        return svg
    }

    /// Threshold lines; their labels stack down from the top of the plot, right of the line or
    /// (near the right edge) left of it.
    func verticalLines(_ fr: Frame, _ labels: inout Labels) -> String {
        var svg = ""
        for v in verticals.sorted(by: { $0.x < $1.x }) {
            let x = fr.px(v.x)
            svg +=
                "<line x1=\"\(Self.f(x))\" y1=\"\(Self.f(fr.top))\" x2=\"\(Self.f(x))\" "
                + "y2=\"\(Self.f(fr.top + fr.plotH))\" stroke=\"\(v.color)\" "
                + "stroke-width=\"1.3\" stroke-dasharray=\"4 3\"/>\n"
            var placed = false
            for row in 0..<Int(fr.plotH / 13) where !placed {
                let y = fr.top + 13 + Double(row) * 13
                for anchor in ["start", "end"] {
                    let tx = anchor == "start" ? x + 3 : x - 3
                    let b = Self.box(x: tx, y: y, text: v.label, fontSize: 10, anchor: anchor)
                    if labels.fits(b, inside: fr.area) {
                        labels.add(v.label, x: tx, y: y, anchor: anchor, color: v.color, halo: true)
                        placed = true
                        break
                    }
                }
            }
        }
        return svg
    }

    /// Marker circles, then each label at the first free spot around its point (8 directions,
    /// growing distance); a leader line joins a label set further than 12 units away.
    func markerLabels(_ fr: Frame, _ labels: inout Labels) -> String {
        var svg = ""
        for m in markers {
            svg +=
                "<circle cx=\"\(Self.f(fr.px(m.x)))\" cy=\"\(Self.f(fr.py(m.y)))\" "
                + "r=\"4\" fill=\"#fff\" stroke=\"\(m.color)\" stroke-width=\"1.6\"/>\n"
            labels.boxes.append(Box(x0: fr.px(m.x) - 4, y0: fr.py(m.y) - 4, x1: fr.px(m.x) + 4, y1: fr.py(m.y) + 4))
        }
        let directions: [(Double, Double)] = [(1, -1), (1, 1), (-1, -1), (-1, 1), (0, -1), (0, 1), (1, 0), (-1, 0)]
        outer: for m in markers {
            let (cx, cy) = (fr.px(m.x), fr.py(m.y))
            for distance in stride(from: 8.0, through: 160, by: 8) {
                for (dx, dy) in directions {
                    let anchor = dx > 0 ? "start" : (dx < 0 ? "end" : "middle")
                    let tx = cx + dx * distance, ty = cy + dy * distance + (dy >= 0 ? 8 : 0)
                    let b = Self.box(x: tx, y: ty, text: m.label, fontSize: 10, anchor: anchor)
                    guard labels.fits(b, inside: fr.area) else { continue }
                    if distance > 12 {
                        let lx = min(max(cx, b.x0), b.x1), ly = min(max(cy, b.y0), b.y1)
                        svg +=
                            "<line x1=\"\(Self.f(cx))\" y1=\"\(Self.f(cy))\" x2=\"\(Self.f(lx))\" "
                            + "y2=\"\(Self.f(ly))\" stroke=\"#888\" stroke-width=\"0.8\"/>\n"
                    }
                    labels.add(m.label, x: tx, y: ty, anchor: anchor, color: m.color, halo: true)
                    continue outer
                }
            }
        }
        return svg
    }

    func legendSVG(_ rows: [[(Int, Double)]], y baseline: Double, _ labels: inout Labels) -> String {
        var svg = ""
        for (r, row) in rows.enumerated() {
            let y = baseline + Double(r) * 16
            for (i, offset) in row {
                let s = series[i], x = 64 + offset
                svg +=
                    "<line x1=\"\(Self.f(x))\" y1=\"\(Self.f(y - 4))\" x2=\"\(Self.f(x + 20))\" "
                    + "y2=\"\(Self.f(y - 4))\" stroke=\"\(s.color)\" "
                    + "stroke-width=\"2\"\(s.dashed ? " stroke-dasharray=\"5 3\"" : "")/>"
                labels.add(s.name, x: x + 24, y: y)
            }
        }
        return svg
    }

    /// Horizontal grouped bars (latency): one group per label, one bar per value.
    package static func bars(
        title: String, unit: String, groups: [(label: String, values: [(name: String, value: Double)])]
    ) -> String {
        let rowHeight = 14.0, groupGap = 10.0, left = 110.0, width = 560.0
        let maxValue = max(groups.flatMap { $0.values.map(\.value) }.filter(\.isFinite).max() ?? 1, 1e-9)
        let barCount = groups.first?.values.count ?? 1
        // One number format for every bar: decimals from the largest value.
        let decimals = maxValue >= 100 ? 0 : (maxValue >= 10 ? 1 : 2)
        let height = 40 + Double(groups.count) * (Double(barCount) * rowHeight + groupGap) + 20
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(escape(title))\">\n"
        svg +=
            "<text x=\"\(Int(width / 2))\" y=\"18\" text-anchor=\"middle\" "
            + "font-size=\"13\" font-weight=\"bold\">\(escape(title))</text>\n"
        var y = 34.0
        for group in groups {
            svg +=
                "<text x=\"\(Int(left - 6))\" y=\"\(String(format: "%.1f", y + rowHeight))\" "
                + "text-anchor=\"end\" font-size=\"11\">\(escape(group.label))</text>\n"
            for (k, bar) in group.values.enumerated() {
                let w = bar.value.isFinite ? (width - left - 130) * bar.value / maxValue : 0
                svg +=
                    "<rect x=\"\(Int(left))\" y=\"\(String(format: "%.1f", y))\" "
                    + "width=\"\(String(format: "%.1f", max(w, 0.5)))\" "
                    + "height=\"\(Int(rowHeight - 3))\" fill=\"\(palette[k % palette.count])\"/>"
                svg +=
                    "<text x=\"\(String(format: "%.1f", left + w + 4))\" "
                    + "y=\"\(String(format: "%.1f", y + rowHeight - 4))\" font-size=\"10\">\(escape(bar.name)) "
                    + "\(RateText.fixed(bar.value, decimals)) \(escape(unit))</text>\n"
                y += rowHeight
            }
            y += groupGap
        }
        return svg + "</svg>"
    }

    package static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
