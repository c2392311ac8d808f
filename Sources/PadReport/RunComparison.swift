import Foundation
import PadMetrics

/// What `padbench compare BASE NEW` found: every checked metric with its verdict, the curves the
/// page overlays, the notes, and how the runs were tested; its JUnit XML here, its page in
/// `SummaryPages.swift`, its terminal table in the command.
///
/// PadRuns compares two stored runs into one (`RunComparison(base:new:settings:)`: the gates, the
/// tests and what "not comparable" means are documented there); this module only presents it.
package struct RunComparison: Sendable {
    package struct Check: Sendable, Codable {
        package var name: String // "basic apcer[print]", "timing face p50_us"
        package var base: Double
        package var new: Double
        package var regressed: Bool
        package var gated: Bool
        /// The test used: `mcnemar`, `clopper-pearson`, `quantile-interval`, `reported`.
        package var test: String
        package var detail: String
        package init(
            name: String, base: Double, new: Double, regressed: Bool, gated: Bool, test: String, detail: String
        ) {
            self.name = name; self.base = base; self.new = new; self.regressed = regressed; self.gated = gated
            self.test = test; self.detail = detail
        }
    }

    /// A profile's curves in both runs (same samples, swept score): the compare page overlays them.
    package struct Overlay: Sendable {
        package var profile: String
        package var base: ErrorCurve
        package var new: ErrorCurve
        package init(profile: String, base: ErrorCurve, new: ErrorCurve) {
            self.profile = profile; self.base = base; self.new = new
        }
    }

    package let checks: [Check]
    package let overlays: [Overlay]
    /// Metrics reported but not gated, with why (`not a liveness decision`, `no timing`).
    package let notes: [String]
    package let paired: Bool
    /// The paired bootstrap's replicates, seed and confidence when it ran (same samples, accuracy gated).
    package let bootstrap: PairedBootstrap.Settings?
    package var regressed: Bool { checks.contains { $0.regressed } }

    package init(
        checks: [Check], overlays: [Overlay], notes: [String], paired: Bool, bootstrap: PairedBootstrap.Settings?
    ) {
        self.checks = checks; self.overlays = overlays; self.notes = notes; self.paired = paired
        self.bootstrap = bootstrap
    }

    /// JUnit XML: one test case per check; a regression is a failure, a metric shown but not
    /// gated is `<skipped/>` (never a pass); the bootstrap's settings are suite properties.
    package var junit: String {
        func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuite name=\"padbench compare\" tests=\"\(checks.count)\" "
            + "failures=\"\(checks.filter(\.regressed).count)\" skipped=\"\(checks.filter { !$0.gated }.count)\">\n"
        if let bootstrap {
            xml += "  <properties>\n"
            for (name, value) in [
                ("bootstrap.replicates", "\(bootstrap.replicates)"), ("bootstrap.seed", "\(bootstrap.seed)"),
                ("bootstrap.confidence", "\(bootstrap.confidence)"), ("bootstrap.sides", "one-sided"),
                ("bootstrap.minimum_units", "\(bootstrap.minimumUnits)"),
            ] {
                xml += "    <property name=\"\(name)\" value=\"\(value)\"/>\n"
            }
            xml += "  </properties>\n"
        }
        for check in checks {
            let summary = escape("\(check.base) -> \(check.new); \(check.test); \(check.detail)")
            xml += "  <testcase classname=\"padbench\" name=\"\(escape(check.name))\">"
            if check.regressed {
                xml +=
                    "<failure message=\"\(escape("\(check.base) -> \(check.new)"))\">\(escape(check.detail))</failure>"
            } else if !check.gated {
                xml += "<skipped message=\"\(summary)\"/>"
            } else {
                xml += "<system-out>\(summary)</system-out>"
            }
            xml += "</testcase>\n"
        }
        return xml + "</testsuite>\n"
    }
}
