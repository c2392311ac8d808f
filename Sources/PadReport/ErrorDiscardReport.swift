import PadArchive
import PadMetrics

/// `edc.csv` and the report's "Error versus discard" section: for each liveness profile and each
/// quality output (read so that higher = better quality), the EDC of BPCER (bona fide discarded by quality) and of
/// APCER_max (attacks discarded by quality) at the profile's fixed decision, with the ideal curve,
/// the area under each up to 20% discarded, and the rates per quality decile
/// (``ErrorDiscard``, ISO/IEC 29794-1:2024 adapted to PAD; formulas there).
///
/// Example: `ErrorDiscardReportTests.rowsAndSection` in `Tests/PadReportTests/ErrorDiscardReportTests.swift`.
///
/// Columns: `profile,split,output,kind,rate,x,quality_low,quality_high,value,ideal,errors,n`.
/// - `kind=curve`: `x` = fraction of the class discarded, `quality_low` = the threshold kept
///   presentations reach (`-inf` for none discarded), `value` = the rate on the kept ones, `ideal`,
///   `errors`/`n` of the group (species for APCER_max) attaining it.
/// - `kind=area`: `x` = 0.2, `value` = area under the curve, `ideal` = area under the ideal.
/// - `kind=decile`: `x` = decile (1 lowest quality ... 10; 0 = not assessable), `quality_low/high`
///   = the band's values, `value` = the rate among the band's presentations.
package enum ErrorDiscardReport {
    package static let header = [
        "profile", "split", "output", "kind", "rate", "x", "quality_low", "quality_high", "value", "ideal", "errors",
        "n",
    ]
    package static let areaLimit = 0.2

    /// The analysis of one quality output for one profile.
    package struct Analysis: Sendable {
        package var profile: String
        package var split: String
        package var output: String
        package var bpcer: [ErrorDiscard.Point]
        package var apcerMax: [ErrorDiscard.Point]
        /// Per decile: (band, BPCER errors/n, APCER_max errors/n).
        package var deciles: [(band: ErrorDiscard.Band, bpcer: Proportion, apcerMax: Proportion)]

        package var bpcerArea: Double { ErrorDiscard.area(bpcer, limit: areaLimit) }
        package var apcerArea: Double { ErrorDiscard.area(apcerMax, limit: areaLimit) }
        package var bpcerIdealArea: Double { ErrorDiscard.idealArea(e0: bpcer.first?.error ?? .nan, limit: areaLimit) }
        package var apcerIdealArea: Double {
            ErrorDiscard.idealArea(e0: apcerMax.first?.error ?? .nan, limit: areaLimit)
        }

        /// The output's EDCs from one decided split: `quality[i]`, `species[i]` (-1 bona fide),
        /// `accepted[i]` of the presentations decided (failures left out by the caller).
        package init(
            profile: String, split: String, output: String, quality: [Double], species: [Int32], accepted: [Bool],
            speciesCount: Int
        ) {
            self.profile = profile; self.split = split; self.output = output
            let bf = species.indices.filter { species[$0] < 0 }, at = species.indices.filter { species[$0] >= 0 }
            bpcer = ErrorDiscard.curve(
                quality: bf.map { quality[$0] }, group: bf.map { _ in 0 }, isError: bf.map { !accepted[$0] },
                groupCount: 1)
            apcerMax = ErrorDiscard.curve(
                quality: at.map { quality[$0] }, group: at.map { species[$0] }, isError: at.map { accepted[$0] },
                groupCount: speciesCount)
            // Counted per band from each unit's decile (one byte a unit): no member lists.
            let (bands, decileOf) = ErrorDiscard.decileOf(quality: quality)
            var bona = [Proportion](repeating: Proportion(errors: 0, total: 0), count: 11)
            var attacks = [[Proportion]](
                repeating: [Proportion](repeating: Proportion(errors: 0, total: 0), count: speciesCount), count: 11)
            for i in quality.indices {
                let d = Int(decileOf[i])
                if species[i] < 0 {
                    bona[d].total += 1
                    if !accepted[i] { bona[d].errors += 1 }
                } else {
                    attacks[d][Int(species[i])].total += 1
                    if accepted[i] { attacks[d][Int(species[i])].errors += 1 }
                }
            }
            deciles = bands.map { band in
                let worst =
                    attacks[band.decile].filter { $0.total > 0 }.max { $0.value < $1.value }
                    ?? Proportion(errors: 0, total: 0)
                return (band, bona[band.decile], worst)
            }
        }
    }

    static func n(_ v: Double) -> String {
        v.isNaN ? "" : v == -.infinity ? "-inf" : v == .infinity ? "inf" : CSVFormat.number(v)
    }

    package static func rows(_ analyses: [Analysis]) -> [[String]] {
        var rows: [[String]] = []
        for a in analyses {
            let prefix = [a.profile, a.split, a.output]
            for (rate, points) in [("bpcer", a.bpcer), ("apcer_max", a.apcerMax)] {
                for p in points {
                    rows.append(
                        prefix + [
                            "curve", rate, n(p.discarded), n(p.qualityThreshold), "", n(p.error), n(p.ideal),
                            String(p.errors), String(p.kept),
                        ])
                }
            }
            rows.append(prefix + ["area", "bpcer", n(areaLimit), "", "", n(a.bpcerArea), n(a.bpcerIdealArea), "", ""])
            rows.append(
                prefix + ["area", "apcer_max", n(areaLimit), "", "", n(a.apcerArea), n(a.apcerIdealArea), "", ""])
            for d in a.deciles {
                for (rate, p) in [("bpcer", d.bpcer), ("apcer_max", d.apcerMax)] where p.total > 0 {
                    rows.append(
                        prefix + [
                            "decile", rate, String(d.band.decile), n(d.band.low), n(d.band.high), n(p.value), "",
                            String(p.errors), String(p.total),
                        ])
                }
            }
        }
        return rows
    }

    package static func table(_ analyses: [Analysis]) -> ReportTables.Table { (header, rows(analyses)) }
}
