import Foundation
import PadArchive
import PadEvaluation
import PadMetrics
import PadText

/// The typed results of a run (`results.json` in every run folder and archive): what `show`,
/// `compare` and `folds` read, for every kind of run (bench, eval on scores or on an archive,
/// import, merge). Rates carry their counts, so a comparison never parses CSV text.
///
/// Example: `ReportOutputsTests.everyRunWritesOutputsAndSubjectIntervals`
/// in `Tests/PadBenchTests/ReportOutputsTests.swift` (compiled and run by `swift test`).
/// NaN never appears: an undefined rate is absent (`nil`).
package struct RunSummary: Codable, Sendable, Equatable {
    package static let currentSchema = 1

    /// errors / total with the 95% Clopper-Pearson interval.
    package struct Rate: Codable, Sendable, Equatable {
        package var errors: Int
        package var total: Int
        package var value: Double
        package var ciLow: Double
        package var ciHigh: Double
        package init?(_ p: Proportion) {
            guard p.total > 0 else { return nil }
            errors = p.errors
            total = p.total
            value = p.value
            (ciLow, ciHigh) = p.interval
        }
        package var proportion: Proportion { Proportion(errors: errors, total: total) }
        /// A rate as a stored table holds it (value and interval read, not computed again).
        package init(errors: Int, total: Int, value: Double, ciLow: Double, ciHigh: Double) {
            self.errors = errors; self.total = total; self.value = value; self.ciLow = ciLow; self.ciHigh = ciHigh
        }
    }

    package struct SpeciesRate: Codable, Sendable, Equatable {
        package var species: String
        package var apcer: Rate
        package init(species: String, apcer: Rate) { self.species = species; self.apcer = apcer }
    }

    package struct TargetSummary: Codable, Sendable, Equatable {
        package var target: Double
        package var threshold: Double?
        package var rate: Double?
        package var targetMet: Bool
    }

    /// pyeer's ZeroFMR or ZeroFNMR point of a swept score (``PadMetrics/ZeroErrorPoints``, FMR =
    /// pooled APCER, FNMR = BPCER): the threshold (a score, in the score file's polarity) and both
    /// rates there. `apcerPooled.errors == 0` when pyeer's ZeroFMR point reaches APCER 0 (it does
    /// not when an attack holds the highest score); `bpcer.errors == 0` at ZeroFNMR unless samples
    /// are rejected at every threshold.
    package struct ZeroErrorSummary: Codable, Sendable, Equatable {
        package var threshold: Double
        package var apcerPooled: Rate?
        package var bpcer: Rate?
    }

    /// A profile's rates on one split.
    package struct SetSummary: Codable, Sendable, Equatable {
        package var split: String
        package var bonaFide: Int
        package var attacks: Int
        package var failed: Int
        package var apcerMax: Rate?
        package var apcerMaxSpecies: String
        package var apcerPooled: Rate?
        package var bpcer: Rate?
        package var apcer: [SpeciesRate]
        package var bpnrr: Rate?
        package var apnrr: Rate?
        package var eer: Double?
        package var eerThreshold: Double?
        /// bob.pad.base's BPCER@APCER = x (threshold on a species' attack score).
        package var bpcerAtAPCER: [TargetSummary]
        /// BPCER100, BPCER20, BPCER10: the best BPCER with APCER_max <= 1%, 5%, 10% (absent in
        /// results written before these were added).
        package var bestBPCERAtAPCER: [TargetSummary]?
        /// APCER_max at BPCER <= 1%, 5%, 10%.
        package var apcerAtBPCER: [TargetSummary]?
        /// EER over all attacks pooled (bob.pad.base) and bob's HTER of the decision (pooled APCER).
        package var eerPooled: Double?
        package var hterPooled: Double?
        package var auc: Double?
        /// pyeer's decidability index d' = |mean_bf - mean_attack| / sqrt((var_bf + var_attack) / 2)
        /// of the swept score, population variances, attacks pooled (absent in results written
        /// before it was added, and when a class has no finite score).
        package var dPrime: Double?
        /// pyeer's ZeroFMR: BPCER at the lowest threshold where pooled APCER reaches its minimum.
        package var bpcerAtZeroAPCER: ZeroErrorSummary?
        /// pyeer's ZeroFNMR: pooled APCER at the highest threshold where BPCER is at its minimum.
        package var apcerAtZeroBPCER: ZeroErrorSummary?
        /// Subject-clustered bootstrap 95% intervals (absent without subjects); the `ciLow` /
        /// `ciHigh` of each rate are Clopper-Pearson over samples.
        package var subjectBootstrap: ProfileResult.SubjectIntervals?
        /// Why rates or score metrics are missing.
        package var errors: [String]
    }

    package struct ProfileSummary: Codable, Sendable, Equatable {
        package var name: String
        package var source: String
        /// ``PadProfiles/Profile/definitionHash``: equal when the profile decides the same way.
        package var definitionHash: String
        package var options: String
        package var score: String?
        package var thresholdSource: String
        /// Calibrated thresholds, in the score file's polarity.
        package var calibratedThresholds: [Double]
        package var calibrationTargetsMet: Bool
        package var reported: SetSummary
        package var calibrationSet: SetSummary?
        package var gatesLeftOut: [String]
        /// False when a gate left out was the profile's swept score or its only liveness / PAD
        /// gate: the rates are then not a liveness decision and `compare` does not gate them.
        package var isLivenessDecision: Bool
        package var notes: [String]
        /// True for a capture check (``PadProfiles/Profile/isCaptureOnly``); nil in runs written
        /// before the field (read as false).
        package var captureOnly: Bool?
        package var isCaptureOnly: Bool { captureOnly ?? false }
        /// A fused swept score's training: split, z-normalisation, weights and intercept (absent
        /// for a measured score).
        package var fusion: FusionOutcome?
    }

    package var schema: Int
    package var profiles: [ProfileSummary]

    package init(results: [ProfileResult]) {
        schema = Self.currentSchema
        profiles = results.map { r in
            ProfileSummary(
                name: r.profile.name, source: r.profile.source, definitionHash: r.profile.definitionHash,
                options: r.profile.optionsKey, score: r.profile.score, thresholdSource: r.thresholdSource.text,
                calibratedThresholds: r.calibrations.map { r.shownThreshold($0.threshold) },
                calibrationTargetsMet: r.calibrations.allSatisfy(\.targetMet),
                reported: Self.set(r.reported, r), calibrationSet: r.calibrationSet.map { Self.set($0, r) },
                gatesLeftOut: r.gatesLeftOut, isLivenessDecision: r.isLivenessDecision, notes: r.notes.map(\.text),
                captureOnly: r.profile.isCaptureOnly, fusion: r.fusion)
        }
    }

    static func finite(_ v: Double) -> Double? { v.isNaN ? nil : v }

    static func set(_ s: ProfileResult.SetResult, _ r: ProfileResult) -> SetSummary {
        let p = s.headline
        let species =
            p.map { p in
                p.speciesNames.indices.sorted { p.speciesNames[$0] < p.speciesNames[$1] }.compactMap { k in
                    Rate(p.apcer[k]).map { SpeciesRate(species: p.speciesNames[k], apcer: $0) }
                }
            } ?? []
        let m = s.scoreMetrics
        func targets(_ list: [ProfileResult.Target]?) -> [TargetSummary]? {
            list.map {
                $0.map {
                    TargetSummary(
                        target: $0.target, threshold: $0.targetMet ? r.shownThreshold($0.threshold) : nil,
                        rate: $0.targetMet ? finite($0.rate) : nil, targetMet: $0.targetMet)
                }
            }
        }
        var summary = SetSummary(
            split: s.split, bonaFide: s.bonaFideCount, attacks: s.attackCount, failed: s.failedCount,
            apcerMax: p.flatMap { Rate($0.apcerMax) }, apcerMaxSpecies: p?.apcerMaxSpecies ?? "",
            apcerPooled: p.flatMap { Rate($0.apcerPooled) }, bpcer: p.flatMap { Rate($0.bpcer) }, apcer: species,
            bpnrr: p.flatMap { Rate($0.bpnrr) }, apnrr: p.flatMap { Rate($0.apnrr) },
            eer: m.flatMap { finite($0.eer.value) }, eerThreshold: m.map { r.shownThreshold($0.eer.threshold) },
            bpcerAtAPCER: m?.bpcerAtAPCER.map {
                TargetSummary(
                    target: $0.target, threshold: $0.targetMet ? r.shownThreshold($0.threshold) : nil,
                    rate: $0.targetMet ? finite($0.rate) : nil, targetMet: $0.targetMet)
            } ?? [],
            auc: m.flatMap { finite($0.auc) }, subjectBootstrap: s.subjectIntervals,
            errors: [s.headlineError, s.scoreError].compactMap { $0 })
        summary.bestBPCERAtAPCER = targets(m?.bestBPCERAtAPCER)
        summary.apcerAtBPCER = targets(m?.apcerAtBPCER)
        summary.eerPooled = m?.pooledEER.flatMap { finite($0.value) }
        summary.hterPooled = p.flatMap { finite(Proportion.mean($0.apcerPooled, $0.bpcer)) }
        summary.dPrime = m?.decidability.flatMap { finite($0.value) }
        func zero(_ point: ZeroErrorPoints.Point?) -> ZeroErrorSummary? {
            point.map {
                ZeroErrorSummary(
                    threshold: r.shownThreshold($0.threshold), apcerPooled: Rate($0.apcerPooled), bpcer: Rate($0.bpcer))
            }
        }
        summary.bpcerAtZeroAPCER = zero(m?.zeroErrorPoints?.bpcerAtZeroAPCER)
        summary.apcerAtZeroBPCER = zero(m?.zeroErrorPoints?.apcerAtZeroBPCER)
        return summary
    }

    package func encoded() throws -> [UInt8] {
        Array(try JSONCoding.encoder().encode(self))
    }

    package static func decode(from bytes: [UInt8], path: String) throws -> RunSummary {
        do {
            let summary = try JSONCoding.decoder().decode(RunSummary.self, from: Data(bytes))
            guard summary.schema == currentSchema else {
                throw ArchiveError.tar(
                    path: path,
                    message: "results.json schema \(summary.schema); this padbench reads schema \(currentSchema)")
            }
            return summary
        } catch let error as ArchiveError {
            throw error
        } catch {
            throw ArchiveError.tar(
                path: path, message: "results.json is not a padbench run summary: \(JSONCoding.problem(error))")
        }
    }
}
