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
public struct RunSummary: Codable, Sendable, Equatable {
    public static let currentSchema = 1

    /// errors / total with the 95% Clopper-Pearson interval.
    public struct Rate: Codable, Sendable, Equatable {
        public var errors: Int
        public var total: Int
        public var value: Double
        public var ciLow: Double
        public var ciHigh: Double
        public init?(_ p: Proportion) {
            guard p.total > 0 else { return nil }
            errors = p.errors
            total = p.total
            value = p.value
            (ciLow, ciHigh) = p.interval
        }
        public var proportion: Proportion { Proportion(errors: errors, total: total) }
    }

    public struct SpeciesRate: Codable, Sendable, Equatable {
        public var species: String
        public var apcer: Rate
    }

    public struct TargetSummary: Codable, Sendable, Equatable {
        public var target: Double
        public var threshold: Double?
        public var rate: Double?
        public var targetMet: Bool
    }

    /// A profile's rates on one split.
    public struct SetSummary: Codable, Sendable, Equatable {
        public var split: String
        public var bonaFide: Int
        public var attacks: Int
        public var failed: Int
        public var apcerMax: Rate?
        public var apcerMaxSpecies: String
        public var apcerPooled: Rate?
        public var bpcer: Rate?
        public var apcer: [SpeciesRate]
        public var bpnrr: Rate?
        public var apnrr: Rate?
        public var eer: Double?
        public var eerThreshold: Double?
        /// bob.pad.base's BPCER@APCER = x (threshold on a species' attack score).
        public var bpcerAtAPCER: [TargetSummary]
        /// BPCER100, BPCER20, BPCER10: the best BPCER with APCER_max <= 1%, 5%, 10% (absent in
        /// results written before these were added).
        public var bestBPCERAtAPCER: [TargetSummary]?
        /// APCER_max at BPCER <= 1%, 5%, 10%.
        public var apcerAtBPCER: [TargetSummary]?
        /// EER over all attacks pooled (bob.pad.base) and bob's HTER of the decision (pooled APCER).
        public var eerPooled: Double?
        public var hterPooled: Double?
        public var auc: Double?
        /// Subject-clustered bootstrap 95% intervals (absent without subjects); the `ciLow` /
        /// `ciHigh` of each rate are Clopper-Pearson over samples.
        public var subjectBootstrap: ProfileResult.SubjectIntervals?
        /// Why rates or score metrics are missing.
        public var errors: [String]
    }

    public struct ProfileSummary: Codable, Sendable, Equatable {
        public var name: String
        public var source: String
        /// ``PadProfiles/Profile/definitionHash``: equal when the profile decides the same way.
        public var definitionHash: String
        public var options: String
        public var score: String?
        public var thresholdSource: String
        /// Calibrated thresholds, in the score file's polarity.
        public var calibratedThresholds: [Double]
        public var calibrationTargetsMet: Bool
        public var reported: SetSummary
        public var calibrationSet: SetSummary?
        public var gatesLeftOut: [String]
        /// False when a gate left out was the profile's swept score or its only liveness / PAD
        /// gate: the rates are then not a liveness decision and `compare` does not gate them.
        public var isLivenessDecision: Bool
        public var notes: [String]
    }

    public var schema: Int
    public var profiles: [ProfileSummary]

    public init(results: [ProfileResult]) {
        schema = Self.currentSchema
        profiles = results.map { r in
            ProfileSummary(
                name: r.profile.name, source: r.profile.source, definitionHash: r.profile.definitionHash,
                options: r.profile.optionsKey, score: r.profile.score, thresholdSource: r.thresholdSource,
                calibratedThresholds: r.calibrations.map { r.shownThreshold($0.threshold) },
                calibrationTargetsMet: r.calibrations.allSatisfy(\.targetMet),
                reported: Self.set(r.reported, r), calibrationSet: r.calibrationSet.map { Self.set($0, r) },
                gatesLeftOut: r.gatesLeftOut, isLivenessDecision: r.isLivenessDecision, notes: r.notes.map(\.text))
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
        return summary
    }

    public func encoded() throws -> [UInt8] {
        Array(try JSONCoding.encoder().encode(self))
    }

    public static func decode(from bytes: [UInt8], path: String) throws -> RunSummary {
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
                path: path, message: "results.json is not a padbench run summary: \(TextBytes.quote("\(error)"))")
        }
    }
}
