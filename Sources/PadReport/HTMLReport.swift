import Foundation
import PadArchive
import PadEvaluation
import PadMetrics

/// `report.html`: one self-contained page (inline CSS and SVG, no scripts, nothing fetched).
/// The first screen answers the question: the run in one sentence, a verdict table per profile
/// (APCER_max with its species and BPCER, each as percent with the count and 95% intervals;
/// left-out gates and "not a liveness decision" flagged) and a short "how to read this page"
/// box. Details follow: APCER per species, which output separates which attack, the intervals
/// side by side, reject reasons, plots per profile (DET with the operating point and EER, rates
/// against threshold, outline histograms with the threshold), latency, run details, conventions.
///
/// Example: `HTMLReportTests.wellFormedSelfContainedAndEveryPlotHasData`
/// in `Tests/PadReportTests/HTMLReportTests.swift` (compiled and run by `swift test`).
/// Every rate on the page is percent with its count, `3.1% (31/1000)`.
package struct HTMLReport {
    package var manifest: RunManifest
    package var results: [ProfileResult]
    package var timing: [TimingStep]
    /// `outputs.csv` rows (which output separates which attack).
    package var outputs: [OutputSeparation.Row]
    /// Sections computed beside the rates (demographic differentials, error versus discard, which
    /// output detects which attribute), as HTML, shown after the intervals.
    package var extraSections: [String] = []
    /// SVG plots rendered, with their data-point counts (for tests).
    package internal(set) var plots: [(title: String, points: Int)] = []

    package init(
        manifest: RunManifest, results: [ProfileResult] = [],
        timing: [TimingStep] = [],
        outputs: [OutputSeparation.Row] = []
    ) {
        self.manifest = manifest
        self.results = results
        self.timing = timing
        self.outputs = outputs
    }

    static func e(_ s: String) -> String { SVGPlot.escape(s) }
    static func pct(_ v: Double) -> String { RateText.percent(v) }
    static func rate(_ p: Proportion) -> String { RateText.percentWithCount(errors: p.errors, total: p.total) }

    /// Up to `limit` evenly spaced curve points plus the last (plots down-sample; CSVs stay exact).
    static func sample(_ count: Int, limit: Int = 400) -> [Int] {
        guard count > limit else { return Array(0..<count) }
        return (0..<limit).map { $0 * (count - 1) / (limit - 1) }
    }

    /// The warning at the top of a profile's section: the gates left out (output not measured, no
    /// approximation) and those replaced by an approximation, and whether the rates are still a
    /// liveness decision. Empty when every gate was decided as written.
    static func leftOutWarning(_ r: ProfileResult) -> String {
        let approximated = r.notes.filter { if case .approximated = $0 { true } else { false } }.map(\.text)
        guard !r.gatesLeftOut.isEmpty || !approximated.isEmpty || !r.isLivenessDecision else { return "" }
        var items: [String] = []
        if !r.gatesLeftOut.isEmpty {
            items.append(
                "Gates left out (output not measured in this run): <b>\(e(r.gatesLeftOut.joined(separator: ", ")))</b>")
        }
        items += approximated.map { e($0) }
        if r.profile.isCaptureOnly {
            items.append(
                "<b>Capture check, not a liveness decision</b>: no gate is on a liveness / PAD output, so "
                    + "\"APCER\" here is the share of attacks the capture checks let through and \"BPCER\" the "
                    + "share of bona fide presentations they turn away (capture reject rates); compare gates the "
                    + "bona fide reject rate only. Pair it with a liveness profile."
            )
        } else if !r.isLivenessDecision {
            items.append(
                "<b>Not a liveness decision</b>: the swept score or the only liveness / PAD gate was left out, "
                    + "so these rates say nothing about attacks; compare does not gate them."
            )
        }
        return "<div class=\"leftout\"><p><b>Warning, profile \(e(r.profile.name)):</b></p><ul>"
            + items.map { "<li>\($0)</li>" }.joined() + "</ul></div>\n"
    }

    package mutating func render() -> String {
        var body = "<h1>padbench report: \(Self.e(manifest.dataset.name))</h1>\n"
        body += "<p class=\"lead\">\(Self.e(summarySentence()))</p>\n"
        if !results.isEmpty { body += "<h2>Verdict</h2>\n" + verdictTable() }
        body += howToRead()
        body += speciesTable()
        body += attackPotentialTable()
        body += outputsTable()
        body += operatingPointsTable()
        body += intervalsTable()
        body += extraSections.joined()
        let reasons = results.flatMap { r in
            r.rejectReasons.map {
                [
                    r.profile.name, $0.label, $0.species, $0.code, $0.message,
                    RateText.percentWithCount(
                        errors: $0.count, total: Int((Double($0.count) / max($0.fraction, 1e-300)).rounded())),
                ]
            }
        }
        if !reasons.isEmpty {
            body += "<h2>Reject reasons (first failing gate)</h2>\n"
            body += HTMLPage.table(
                ["profile", "label", "species", "code", "message", "share of the group"], reasons, numeric: [5])
        }
        for r in results { body += profilePlots(r) }
        body += latency()
        body += runDetails()
        return HTMLPage.document(title: "padbench: \(manifest.dataset.name)", body: body)
    }

    /// The run in one sentence.
    func summarySentence() -> String {
        let m = manifest
        var text =
            "\(m.kind) run by \(m.tool.name) \(m.tool.version) on \(m.dataset.samples) "
            + "samples of \(m.dataset.name) (\(m.dataset.layout))"
        if let r = results.first {
            // The species of the reported split only (another split's species would read as tested).
            let species =
                r.headline.map { p in
                    p.speciesNames.indices.filter { p.apcer[$0].total > 0 }.map { p.speciesNames[$0] }.sorted()
                } ?? []
            text +=
                ", \(results.count) profile\(results.count == 1 ? "" : "s") "
                + "(\(results.map(\.profile.name).joined(separator: ", ")))"
            text += "; rates on split \(r.split): \(r.bonaFideCount) bona fide, \(r.attackCount) attacks"
            if !species.isEmpty { text += " of \(species.count) species (\(species.joined(separator: ", ")))" }
            text += ", \(r.failedCount) failed to process"
        }
        return text + "."
    }

    func verdictTable() -> String {
        let rows = results.map { r -> [String] in
            let p = r.headline, b = r.reported.subjectIntervals
            var apcer = "n/a", bpcer = "n/a"
            if let p, p.apcerMax.total > 0 {
                apcer =
                    "<b>\(Self.pct(p.apcerMax.value))</b> (\(p.apcerMax.errors)/"
                    + "\(p.apcerMax.total)) \(Self.e(p.apcerMaxSpecies))"
                    + Self.intervalLines(p.apcerMax.interval, b?.apcerMax, b)
            }
            if let p, p.bpcer.total > 0 {
                bpcer =
                    "<b>\(Self.pct(p.bpcer.value))</b> (\(p.bpcer.errors)/\(p.bpcer.total))"
                    + Self.intervalLines(p.bpcer.interval, b?.bpcer, b)
            } else if p != nil {
                bpcer = "n/a (no bona fide)"
            }
            let eer =
                r.scoreMetrics.map { m in
                    "\(Self.pct(m.eer.value)) at \(Self.e(RateText.threshold(r.shownThreshold(m.eer.threshold))))"
                        + (b?.eer.map {
                            // One subject in a class: no interval, as summary.csv and the rates say.
                            let interval =
                                b!.hasSingleSubjectStratum
                                ? "n/a (1 subject)" : RateText.percentInterval($0.low, $0.high)
                            return "<br/><span class=\"ci\">subjects 95% \(interval)</span>"
                        } ?? "")
                } ?? "-"
            if r.profile.isCaptureOnly {
                // A capture check's rates are what its checks let through and turn away.
                apcer = "<span class=\"ci\">attacks let through by the capture checks</span><br/>" + apcer
                bpcer = "<span class=\"ci\">bona fide turned away by the capture checks</span><br/>" + bpcer
            }
            return [Self.e(r.profile.name), apcer, bpcer, eer, Self.e(r.thresholdSource.text), flags(r)]
        }
        return HTMLPage.rawTable(
            ["profile", "APCER_max (worst species)", "BPCER", "EER of the score", "thresholds", "flags"], rows,
            cssClass: "verdict")
    }

    static func intervalLines(
        _ cp: (low: Double, high: Double), _ boot: ProfileResult.Interval?, _ b: ProfileResult.SubjectIntervals?
    ) -> String {
        var html = "<br/><span class=\"ci\">Clopper-Pearson 95% \(RateText.percentInterval(cp.low, cp.high))</span>"
        if let boot, let b {
            // A class with one subject has no between-subject variation: its interval is not shown.
            let interval =
                b.hasSingleSubjectStratum ? "n/a (1 subject)" : RateText.percentInterval(boot.low, boot.high)
            html += "<br/><span class=\"ci\">subjects 95% \(interval)</span>"
        }
        return html
    }

    func flags(_ r: ProfileResult) -> String {
        var flags: [String] = []
        if r.profile.isCaptureOnly {
            flags.append(HTMLPage.flag("capture check: reject rates, not a liveness decision"))
        } else if !r.isLivenessDecision {
            flags.append(HTMLPage.flag("not a liveness decision", "bad"))
        }
        var seen = Set<String>()
        let leftOut = r.gatesLeftOut.filter { seen.insert($0).inserted }
        if !leftOut.isEmpty { flags.append(HTMLPage.flag("gates left out: \(leftOut.joined(separator: ", "))")) }
        if let error = r.headlineError { flags.append(HTMLPage.flag(error)) }
        if let error = r.scoreError { flags.append(HTMLPage.flag(error)) }
        if r.calibrations.contains(where: { !$0.targetMet }) {
            flags.append(HTMLPage.flag("calibration target not met", "bad"))
        }
        for case .check(let check) in r.notes {
            flags.append(HTMLPage.flag(check.text, "bad"))
        }
        for t in r.scoreMetrics?.bpcerAtAPCER ?? [] where !t.targetMet {
            flags.append(HTMLPage.flag("BPCER@APCER=\(Self.pct(t.target)) out of reach"))
        }
        return flags.isEmpty ? HTMLPage.flag("none", "ok") : flags.joined(separator: "<br/>")
    }

    func howToRead() -> String {
        let hasSubjects = results.contains { $0.reported.subjectIntervals != nil }
        let subjectIntervals =
            hasSubjects
            ? "<b>subjects</b> resamples whole people (bootstrap), wider when a person gives many samples."
            : "this dataset names no subjects, so no subject-clustered interval is given."
        return """
            <div class="howto"><h3>How to read this page</h3><ul>
            <li><b>APCER</b>: share of attack presentations accepted as bona fide, per attack species (PAI species). \
            <b>APCER_max</b> is the worst species, the headline of ISO/IEC 30107-3. <b>BPCER</b>: share of bona fide \
            presentations rejected. Lower is better for both; \
            each is shown as percent with the count, 3.1% (31/1000).</li>
            <li>Rates are at the profile's decision \
            (all its gates and thresholds) on the split named above. The <b>EER</b> \
            sweeps the profile's score with its other gates held fixed.</li>
            <li>Intervals are 95%: <b>Clopper-Pearson</b> counts every sample as independent; \
            \(subjectIntervals)</li>
            <li>Flags: <b>gates left out</b> = the run did not measure those outputs, \
            so the profile decided without them; \
            <b>not a liveness decision</b> = its score or its only liveness gate was left out, \
            so the rates say nothing about attacks.</li>
            <li>Below: APCER per species, which output separates which attack, \
            plots per profile, reject reasons, latency, \
            run details and conventions. CSV files beside this page hold every number as a fraction.</li>
            </ul></div>

            """
    }

    func speciesTable() -> String {
        let rows = results.flatMap { r -> [[String]] in
            r.sets.flatMap { set -> [[String]] in
                guard let p = set.headline else { return [] }
                return p.speciesNames.indices.filter { p.apcer[$0].total > 0 }.sorted {
                    p.speciesNames[$0] < p.speciesNames[$1]
                }.map { s in
                    [
                        r.profile.name, set.split,
                        p.speciesNames[s] + (p.speciesNames[s] == p.apcerMaxSpecies ? " (max)" : ""),
                        Self.rate(p.apcer[s]),
                        RateText.percentInterval(p.apcer[s].interval.low, p.apcer[s].interval.high),
                    ]
                }
            }
        }
        guard !rows.isEmpty else { return "" }
        return "<h2>APCER per species</h2>\n"
            + HTMLPage.table(
                ["profile", "split", "species", "APCER (accepted/attacks)", "Clopper-Pearson 95%"], rows,
                numeric: [3, 4])
    }

    /// APCER_AP per attack potential level (ISO/IEC 30107-3:2023: the highest APCER among the
    /// level's species), when the run names levels.
    func attackPotentialTable() -> String {
        guard let levels = manifest.attackPotential else { return "" }
        let potential = AttackPotential(levels: levels)
        let rows = results.flatMap { r in
            r.sets.flatMap { set -> [[String]] in
                guard let p = set.headline else { return [] }
                return potential.apcerPerLevel(speciesNames: p.speciesNames, apcer: p.apcer).map {
                    [r.profile.name, set.split, $0.level, $0.species, Self.rate($0.apcer)]
                }
            }
        }
        guard !rows.isEmpty else { return "" }
        return "<h2>APCER per attack potential (APCER_AP, ISO/IEC 30107-3:2023)</h2>\n"
            + HTMLPage.table(
                ["profile", "split", "level", "species", "APCER_AP (accepted/attacks)"], rows, numeric: [4])
    }

    /// Outputs ranked by their worst species' AUC (each species in the direction that separates it).
    func outputsTable() -> String {
        let species = Array(Set(outputs.map(\.species))).filter { $0 != OutputSeparation.allSpecies }.sorted()
        let byOutput = Dictionary(grouping: outputs, by: \.output)
        let ranked = byOutput.map { name, rows -> (String, Double, [OutputSeparation.Row]) in
            let worst =
                rows.filter { $0.species != OutputSeparation.allSpecies && !$0.auc.isNaN }.map(\.auc).min() ?? .nan
            return (name, worst, rows)
        }.sorted { ($0.1.isNaN ? -1 : $0.1, $1.0) > ($1.1.isNaN ? -1 : $1.1, $0.0) }
        // No table of dashes: an output table needs at least one AUC (both classes present).
        guard !ranked.isEmpty, !species.isEmpty, outputs.contains(where: { !$0.auc.isNaN }) else { return "" }
        func cell(_ row: OutputSeparation.Row?) -> String {
            guard let row, !row.auc.isNaN else { return "-" }
            let arrow = row.direction == "lower-bona-fide" ? "&#8595;" : "&#8593;"
            return "\(RateText.fixed(row.auc, 3)) \(arrow)<br/><span class=\"ci\">EER \(Self.pct(row.eer))</span>"
        }
        let rows = ranked.prefix(Self.outputRowsShown).enumerated().map { k, entry -> [String] in
            [String(k + 1), Self.e(entry.0), entry.1.isNaN ? "-" : RateText.fixed(entry.1, 3)]
                + species.map { s in cell(entry.2.first { $0.species == s }) }
                + (species.count > 1 ? [cell(entry.2.first { $0.species == OutputSeparation.allSpecies })] : [])
        }
        let header =
            ["rank", "output", "worst AUC"] + species.map { "AUC vs \($0)" }
            + (species.count > 1 ? ["all attacks"] : [])
        return
            "<h2>Which output separates which attack</h2>\n<p class=\"meta\">AUC of each attack species against bona "
            + "fide on the reported split (1 = fully separated, 0.5 = not at all), in the direction that separates "
            + "them: &#8593; higher values are bona fide, &#8595; lower values are. EER in the "
            + "same direction. Ranked by the worst species. All rows: outputs.csv.</p>\n"
            + HTMLPage.rawTable(header, rows, numeric: Set(0..<header.count).subtracting([1]))
            + (ranked.count > Self.outputRowsShown
                ? "<p class=\"meta\">\(ranked.count - Self.outputRowsShown) more outputs, "
                    + "ranked lower: outputs.csv.</p>\n"
                : "")
    }

    /// Outputs shown in the ranked table (all of them are in outputs.csv).
    static let outputRowsShown = 12

    /// Clopper-Pearson and subject-bootstrap intervals side by side.
    func intervalsTable() -> String {
        var rows: [[String]] = []
        for r in results {
            guard let b = r.reported.subjectIntervals, let p = r.headline else { continue }
            let subjects =
                "\(b.bonaFideSubjects) bona fide; "
                + b.attackSubjects.map { "\($0.species) \($0.subjects)" }.joined(separator: ", ")
            func both(_ name: String, _ value: String, _ cp: String, _ boot: ProfileResult.Interval?) {
                rows.append([
                    r.profile.name, name, value, cp,
                    b.hasSingleSubjectStratum
                        ? "n/a (1 subject)" : boot.map { RateText.percentInterval($0.low, $0.high) } ?? "n/a",
                    subjects,
                ])
            }
            if p.apcerMax.total > 0 {
                both(
                    "APCER_max", Self.rate(p.apcerMax),
                    RateText.percentInterval(p.apcerMax.interval.low, p.apcerMax.interval.high), b.apcerMax)
            }
            if p.bpcer.total > 0 {
                both(
                    "BPCER", Self.rate(p.bpcer), RateText.percentInterval(p.bpcer.interval.low, p.bpcer.interval.high),
                    b.bpcer)
            }
            if let m = r.scoreMetrics {
                both("EER", Self.pct(m.eer.value), "-", b.eer)
                for t in m.bpcerAtAPCER {
                    both(
                        "BPCER@APCER=\(Self.pct(t.target))", t.targetMet ? Self.pct(t.rate) : "out of reach", "-",
                        b.bpcerAtAPCER.first { $0.target == t.target }?.interval)
                }
            }
        }
        guard !rows.isEmpty else { return "" }
        return
            "<h2>Intervals: samples and subjects</h2>\n<p class=\"meta\">Clopper-Pearson treats every sample as "
            + "independent. The subject bootstrap resamples people within bona fide and each species "
            + "(\(SubjectBootstrap.replicates) replicates, seed \(SubjectBootstrap.seed), percentile interval); "
            + "thresholds stay fixed. A class with one subject cannot show between-subject variation.</p>\n"
            + HTMLPage.table(
                [
                    "profile", "metric", "estimate", "Clopper-Pearson 95% (samples)", "subject bootstrap 95%",
                    "subjects",
                ], rows, numeric: [2, 3, 4])
    }
}
