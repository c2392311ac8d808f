import PadArchive
import PadEvaluation
import PadMetrics
import PadReport
import PadVocabulary

/// The accuracy half of ``RunComparison``: per profile, APCER per species and BPCER on the
/// reported split, by McNemar on paired decisions or by non-overlapping Clopper-Pearson
/// intervals on different samples.
struct AccuracyComparison {
    var checks: [RunComparison.Check] = []
    var notes: [String] = []
    /// Per profile with a paired bootstrap: the base and new curves, for the compare page.
    var overlays: [RunComparison.Overlay] = []
    /// Reasons the runs are not comparable.
    var problems: [String] = []

    init(base: StoredRun, new: StoredRun, paired: Bool, settings: RunComparison.Settings) throws {
        let baseProfiles = Dictionary(base.summary.profiles.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let newProfiles = Dictionary(new.summary.profiles.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let baseDecisions = paired ? try Self.decisions(base) : [:]
        let newDecisions = paired ? try Self.decisions(new) : [:]
        let names = Set(baseProfiles.keys).union(newProfiles.keys)
        for wanted in settings.profiles ?? [] where !names.contains(wanted) {
            problems.append(
                "--profiles names \(wanted), which is in neither run (profiles: \(names.sorted().joined(separator: ", ")))"
            )
        }
        let curves = paired ? try Self.curveInputs(base, new, gated: Self.gated(names, settings)) : [:]
        overlays = curves.keys.sorted().compactMap { name in
            curves[name]!.curves.map { RunComparison.Overlay(profile: name, base: $0.base, new: $0.new) }
        }
        for name in names.sorted() {
            let before = checks.count
            defer { if !Self.gated(name, settings) { ungate(from: before, reason: "not in --profiles") } }
            guard let b = baseProfiles[name], let n = newProfiles[name] else {
                problems.append(
                    "profile \(name) is only in \(baseProfiles[name] == nil ? "NEW" : "BASE"): "
                        + "its rates cannot be compared"
                )
                continue
            }
            guard b.definitionHash == n.definitionHash else {
                problems.append(
                    "profile \(name) decides differently in the two runs (definition \(b.definitionHash) "
                        + "vs \(n.definitionHash)); compare runs of the same profile definition"
                )
                continue
            }
            if b.isCaptureOnly && n.isCaptureOnly {
                captureChecks(
                    name, b, n, baseDecisions[name] ?? [:], newDecisions[name] ?? [:], paired: paired, settings)
                continue
            }
            guard b.isLivenessDecision && n.isLivenessDecision else {
                let leftOut = Set(b.gatesLeftOut + n.gatesLeftOut).sorted().joined(separator: ", ")
                notes.append("profile \(name): not a liveness decision (gates left out: \(leftOut)); not gated")
                continue
            }
            if let input = curves[name]?.input {
                curveChecks(
                    name, PairedBootstrap.compare(input, targets: ProfileResult.targets, settings: settings.bootstrap),
                    settings)
            } else if let be = b.reported.eer, let ne = n.reported.eer {
                checks.append(
                    .init(
                        name: "\(name) eer", base: be, new: ne, regressed: false, gated: false, test: "reported",
                        detail: "reported, not gated"))
            }
            if paired {
                pairedChecks(
                    name, b.reported, n.reported, baseDecisions[name] ?? [:], newDecisions[name] ?? [:], settings)
            } else {
                intervalChecks(name, b.reported, n.reported, settings)
            }
        }
    }

    /// Whether `--profiles` lets the gate judge this profile (every profile without the option).
    static func gated(_ profile: String, _ settings: RunComparison.Settings) -> Bool {
        settings.profiles.map { $0.contains(profile) } ?? true
    }

    static func gated(_ names: Set<String>, _ settings: RunComparison.Settings) -> [String] {
        names.filter { gated($0, settings) }.sorted()
    }

    /// Checks appended since `start` become information: shown, never failing (JUnit `<skipped/>`).
    mutating func ungate(from start: Int, reason: String) {
        for k in start..<checks.count {
            checks[k].regressed = false
            checks[k].gated = false
            checks[k].detail = "not gated (\(reason)); " + checks[k].detail
        }
    }

    /// The paired bootstrap inputs of the gated profiles both runs decide the same way with a
    /// swept score (``StoredRun/sweptScores(profiles:)``).
    static func curveInputs(_ base: StoredRun, _ new: StoredRun, gated: [String]) throws
        -> [String: (input: PairedBootstrap.Input, curves: (base: ErrorCurve, new: ErrorCurve)?)]
    {
        let both = gated.filter { name in
            guard let b = base.summary.profiles.first(where: { $0.name == name }),
                let n = new.summary.profiles.first(where: { $0.name == name })
            else { return false }
            return b.definitionHash == n.definitionHash && b.isLivenessDecision && n.isLivenessDecision
                && b.score != nil
        }
        let baseScores = try base.sweptScores(profiles: both), newScores = try new.sweptScores(profiles: both)
        var inputs: [String: (input: PairedBootstrap.Input, curves: (base: ErrorCurve, new: ErrorCurve)?)] = [:]
        for name in both {
            guard let b = baseScores[name], let n = newScores[name] else { continue }
            let curves = b.curve.flatMap { bc in n.curve.map { (base: bc, new: $0) } }
            inputs[name] = (PairedBootstrap.Input(base: b, new: n), curves)
        }
        return inputs
    }

    /// EER and BPCER at each APCER target by the paired bootstrap: a regression when the rise is
    /// above the tolerance and its one-sided interval [L, +inf) excludes zero.
    mutating func curveChecks(_ profile: String, _ result: PairedBootstrap.Result, _ settings: RunComparison.Settings) {
        let how =
            "paired bootstrap over \(result.bonaFideUnits) bona fide and \(result.attackUnits) attack units, "
            + "\(result.settings.replicates) replicates, seed \(result.settings.seed)"
        let level = RateText.fixed(result.settings.confidence * 100, 0)
        for m in result.metrics {
            let name = "\(profile) \(m.name)"
            if result.tooFewUnits {
                let unit = result.smallestUnits == 1 ? String(result.unitKind.dropLast()) : result.unitKind
                checks.append(
                    .init(
                        name: name, base: m.base ?? .nan, new: m.new ?? .nan, regressed: false, gated: false,
                        test: "paired-bootstrap",
                        detail:
                            "not gated (\(result.smallestUnits) \(unit)): \(result.smallestStratum) has "
                            + "\(result.smallestUnits) of the \(result.settings.minimumUnits) units the paired "
                            + "bootstrap needs for an interval; the rates are gated by McNemar"))
                continue
            }
            guard let b = m.base, let n = m.new, let low = m.lowerBound, let rise = m.rise else {
                let missing = m.base == nil ? "BASE" : (m.new == nil ? "NEW" : "no replicate")
                checks.append(
                    .init(
                        name: name, base: m.base ?? .nan, new: m.new ?? .nan, regressed: false, gated: false,
                        test: "paired-bootstrap", detail: "not gated: undefined in \(missing) (target out of reach)"))
                continue
            }
            let regressed = rise > settings.rateTolerance && m.significant
            checks.append(
                .init(
                    name: name, base: b, new: n, regressed: regressed, gated: true, test: "paired-bootstrap",
                    detail:
                        "new - base \(RateText.percentagePoints(rise)), one-sided \(level)% interval [\(RateText.percentagePoints(low)), +inf) "
                        + "(\(how), \(m.replicatesUsed) used)"
                        + "\(rise > settings.rateTolerance && !regressed ? "; rise not significant" : "")"))
        }
    }

    /// One rate compared on both sides: missing on one side is a problem, on both a note.
    mutating func present(_ name: String, _ b: RunSummary.Rate?, _ n: RunSummary.Rate?) -> (
        RunSummary.Rate, RunSummary.Rate
    )? {
        switch (b, n) {
        case (let b?, let n?): return (b, n)
        case (nil, nil):
            notes.append("\(name): undefined in both runs (no samples of that class); not gated"); return nil
        default: problems.append("\(name) is defined in \(b == nil ? "NEW" : "BASE") only"); return nil
        }
    }

    mutating func pairedChecks(
        _ profile: String, _ b: RunSummary.SetSummary, _ n: RunSummary.SetSummary,
        _ baseDecisions: [String: Decided], _ newDecisions: [String: Decided], _ settings: RunComparison.Settings
    ) {
        let (worse, better) = Self.discordant(base: baseDecisions, new: newDecisions)
        var rates: [(String, String, RunSummary.Rate?, RunSummary.Rate?)] = [("bpcer", "", b.bpcer, n.bpcer)]
        let species = Set(b.apcer.map(\.species)).union(n.apcer.map(\.species)).sorted()
        for s in species {
            rates.append(
                ("apcer[\(s)]", s, b.apcer.first { $0.species == s }?.apcer, n.apcer.first { $0.species == s }?.apcer))
        }
        for (metric, key, br, nr) in rates {
            guard let (bp, np) = present("\(profile) \(metric)", br, nr) else { continue }
            let w = worse[key] ?? 0, bt = better[key] ?? 0
            let p = McNemar.oneSidedPValue(worse: w, better: bt)
            let rise = np.value - bp.value
            let regressed = rise > settings.rateTolerance && p < settings.significance
            checks.append(
                .init(
                    name: "\(profile) \(metric)", base: bp.value, new: np.value, regressed: regressed, gated: true,
                    test: "mcnemar",
                    detail:
                        "\(bp.errors)/\(bp.total) -> \(np.errors)/\(np.total); discordant: \(w) now wrong, \(bt) now "
                        + "right; one-sided exact McNemar p = \(RateText.fixed(p, 4))"
                        + "\(rise > settings.rateTolerance && !regressed ? " (rise not significant)" : "")"
                ))
        }
        if let (bp, np) = present("\(profile) apcer_max", b.apcerMax, n.apcerMax) {
            checks.append(
                .init(
                    name: "\(profile) apcer_max", base: bp.value, new: np.value, regressed: false, gated: false,
                    test: "reported",
                    detail:
                        "\(b.apcerMaxSpecies) \(bp.errors)/\(bp.total) -> \(n.apcerMaxSpecies) "
                        + "\(np.errors)/\(np.total); gated per species above"
                ))
        }
    }

    /// McNemar's discordant pairs per class (key "" = bona fide, else the species) of two runs'
    /// decisions on the same samples: `worse` counts the samples the new run gets wrong and the
    /// base right, `better` the other way round. `padbench table` counts its pairs with this too,
    /// so its p-values are the ones `compare` gives.
    static func discordant(base: [String: Decided], new: [String: Decided]) -> (
        worse: [String: Int], better: [String: Int]
    ) {
        var worse: [String: Int] = [:], better: [String: Int] = [:]
        for (id, before) in base {
            guard let after = new[id], after.species == before.species, after.accepted != before.accepted
            else { continue }
            let key = before.species ?? ""
            // An error is an accepted attack or a rejected bona fide.
            let nowWrong = before.species == nil ? !after.accepted : after.accepted
            if nowWrong { worse[key, default: 0] += 1 } else { better[key, default: 0] += 1 }
        }
        return (worse, better)
    }

    /// A capture check (``RunSummary/ProfileSummary/isCaptureOnly``): what regresses is the share
    /// of bona fide presentations its checks turn away, `capture_reject[bonafide]` (numerically
    /// its BPCER), gated as BPCER is (McNemar on paired decisions, else disjoint Clopper-Pearson
    /// intervals). The attack rates (what the checks let through) are shown, not gated: a capture
    /// check is no PAD decision.
    mutating func captureChecks(
        _ profile: String, _ b: RunSummary.ProfileSummary, _ n: RunSummary.ProfileSummary,
        _ baseDecisions: [String: Decided], _ newDecisions: [String: Decided], paired: Bool,
        _ settings: RunComparison.Settings
    ) {
        let before = checks.count
        if paired {
            pairedChecks(profile, b.reported, n.reported, baseDecisions, newDecisions, settings)
        } else {
            intervalChecks(profile, b.reported, n.reported, settings)
        }
        // APCER_max is "gated per species" for a liveness profile: nothing here to point to.
        checks[before...].removeAll { $0.name == "\(profile) apcer_max" }
        for k in before..<checks.count {
            if checks[k].name == "\(profile) bpcer" {
                checks[k].name = "\(profile) capture_reject[bonafide]"
                checks[k].detail = "bona fide rejected by the capture checks: " + checks[k].detail
            } else {
                checks[k].name = checks[k].name.replacingOccurrences(
                    of: "\(profile) apcer", with: "\(profile) capture_pass")
                checks[k].regressed = false
                checks[k].gated = false
                checks[k].detail = "not gated (capture check: attacks it lets through, not APCER); " + checks[k].detail
            }
        }
    }

    mutating func intervalChecks(
        _ profile: String, _ b: RunSummary.SetSummary, _ n: RunSummary.SetSummary, _ settings: RunComparison.Settings
    ) {
        for (metric, br, nr) in [("apcer_max", b.apcerMax, n.apcerMax), ("bpcer", b.bpcer, n.bpcer)] {
            guard let (bp, np) = present("\(profile) \(metric)", br, nr) else { continue }
            let rise = np.value - bp.value
            let significant = np.ciLow > bp.ciHigh
            let regressed = rise > settings.rateTolerance && significant
            checks.append(
                .init(
                    name: "\(profile) \(metric)", base: bp.value, new: np.value, regressed: regressed, gated: true,
                    test: "clopper-pearson",
                    detail:
                        "\(bp.errors)/\(bp.total) -> \(np.errors)/\(np.total); new 95% CI "
                        + "[\(RateText.fixed(np.ciLow, 4)), \(RateText.fixed(np.ciHigh, 4))] vs base "
                        + "[\(RateText.fixed(bp.ciLow, 4)), \(RateText.fixed(bp.ciHigh, 4))]"
                        + "\(rise > settings.rateTolerance && !significant ? "; rise not significant" : "")"
                ))
        }
    }

    struct Decided { var species: String?; var accepted: Bool }

    /// Per profile, per sample id of the reported split: species (nil = bona fide) and decision.
    /// A run with presentations of several frames pairs presentations
    /// (`presentation_decisions.csv`: ISO/IEC 30107-3's trials), not frames.
    static func decisions(_ run: StoredRun) throws -> [String: [String: Decided]] {
        let member =
            run.contains(PresentationLevel.decisionsMember) ? PresentationLevel.decisionsMember : RunFile.decisions.name
        let reported = Dictionary(
            run.summary.profiles.map { ($0.name, $0.reported.split) }, uniquingKeysWith: { a, _ in a })
        var result: [String: [String: Decided]] = [:]
        try DecisionsSchema.forEachRow(try run.entry(member), path: run.path + ":" + member) { row in
            guard let want = reported[row.profile], want == "all" || row.split == want else { return }
            guard let accepted = row.accepted else { return }
            result[row.profile, default: [:]][row.id] = Decided(
                species: row.isBonaFide ? nil : row.species, accepted: accepted)
        }
        return result
    }
}
