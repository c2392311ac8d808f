import PadArchive
import PadReport
import PadSamples
import PadEvaluation
import PadMetrics
import PadProfiles
import PadText
import PadVocabulary

extension StoredRun {
    /// A run whose `labels.csv` has `group.*` columns writes `fairness.csv`; its FDR and GARBE rows
    /// are functions of the group rows beside them (``DemographicDifferentials``), and each group
    /// rate is its own errors / n. A run that disagrees with itself cannot be gated on fairness: a
    /// deleted `fairness.csv` would turn the gate off, an edited FDR would pass as reported.
    /// Throws ``StoredRunMismatch`` naming the file and the row.
    func verifyFairness() throws {
        guard contains(RunFile.fairness.name) else {
            if contains(RunFile.labels.name),
                try table(RunFile.labels.name).header.contains(where: { $0.hasPrefix("group.") })
            {
                throw StoredRunMismatch(
                    "\(path): labels.csv has group.* columns but fairness.csv is missing: "
                        + "the archive was edited or damaged")
            }
            return
        }
        let file = path + ":" + RunFile.fairness.name
        let characteristics = try Self.groupsAndDifferentials(table(RunFile.fairness.name), file: file)
        for (key, groups) in characteristics {
            try Self.checkDifferentials(groups, key: key, file: file)
        }
        try recomputeFairness(file: file)
    }

    /// `fairness.csv` written again from what the run decided and the labels it kept, as the run
    /// wrote it (``FairnessReport/characteristics(_:groups:labels:units:level:alpha:)`` over
    /// `labels.csv`, `samples.csv` and the decisions file that counts the run's units), byte for byte.
    /// A group value edited in `labels.csv`, a row of `fairness.csv` dropped or changed with its
    /// differentials edited to match, each gives other bytes. Throws naming the first line that differs.
    func recomputeFairness(file: String) throws {
        guard contains(RunFile.labels.name) else {
            throw StoredRunMismatch("\(file) is there but labels.csv is missing: the archive was edited or damaged")
        }
        let labels = try table(RunFile.labels.name)
        let groups = labels.header.filter { $0.hasPrefix(SampleLabels.groupPrefix) }
        let (units, decided, member) = try analysisInputs(labels: labels)
        let table = FairnessReport.table(
            FairnessReport.characteristics(
                decided, groups: groups, labels: labels, units: units, level: "presentation",
                alpha: FairnessReport.alpha))
        try sameBytes(
            RunFile.fairness.name, expected: CSVWriter.encode(header: table.header, rows: table.rows),
            from: "\(RunFile.labels.name) and \(member)")
    }

    /// What the run's analyses are computed from, read back from the archive: its units (samples,
    /// or presentations with the manifest's frame aggregate), and each liveness profile's (and
    /// capture check's) decided units on its reported split from the decisions file that counts
    /// them. `labels` (when given) must name samples of the run.
    func analysisInputs(labels: CSVTable? = nil) throws -> (
        units: AnalysisUnits, decided: [DecidedUnits], member: String
    ) {
        var samples = try MeasurementTable(
            samplesCSV: archive.entry(named: RunFile.samples.name), path: path + ":" + RunFile.samples.name)
        try samples.adopt(layout: manifest.columns, path: path + ":" + RunFile.manifest.name)
        if let labels { try Self.checkLabelIDs(labels, samples: samples, file: path + ":" + RunFile.labels.name) }
        let units = try AnalysisUnits(samples, aggregate: manifest.effectiveFrameAggregate)
        let member = samples.hasPresentations ? RunFile.presentationDecisions.name : RunFile.decisions.name
        let wanted = summary.profiles.filter { profile in
            (profile.isLivenessDecision || profile.isCaptureOnly)
                && (profile.reported.bpcer != nil || !profile.reported.apcer.isEmpty)
        }.map {
            DecidedUnits(
                profile: $0.name, split: $0.reported.split, speciesNames: $0.reported.apcer.map(\.species), score: nil)
        }
        let decided =
            wanted.isEmpty
            ? []
            : try DecidedUnits.read(
                archive.entry(named: member), path: path + ":" + member, into: wanted, rowOf: units.rowOf)
        return (units, decided, member)
    }

    /// A stored member against the bytes it is recomputed as; throws naming its first differing line.
    func sameBytes(_ name: String, expected: [UInt8], from sources: String) throws {
        let stored = try archive.entry(named: name)
        guard stored != expected else { return }
        let storedLines = stored.split(separator: 0x0A, omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: 0x0A, omittingEmptySubsequences: false)
        let line =
            zip(storedLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(storedLines.count, expectedLines.count)
        let text = { (lines: [ArraySlice<UInt8>]) in
            line < lines.count ? "'" + TextBytes.quote(bytes: lines[line], limit: 120) + "'" : "no line"
        }
        throw StoredRunMismatch(
            "\(path):\(name):\(line + 1): not what \(sources) give (stored \(text(storedLines)), "
                + "recomputed \(text(expectedLines)))")
    }

    /// Every row of `labels.csv` names a sample of the run, once.
    static func checkLabelIDs(_ labels: CSVTable, samples: MeasurementTable, file: String) throws {
        let id = try labels.requireColumn("id")
        var known = Set<String>(minimumCapacity: samples.count)
        for i in 0..<samples.count { known.insert(samples.ids[i]) }
        var seen = Set<String>(minimumCapacity: labels.records.count)
        for record in labels.records {
            let name = record.fields[id]
            guard known.contains(name) else {
                throw StoredRunMismatch("\(file):\(record.line): id '\(TextBytes.quote(name))' is no sample of the run")
            }
            guard seen.insert(name).inserted else {
                throw StoredRunMismatch("\(file):\(record.line): id '\(TextBytes.quote(name))' is labelled twice")
            }
        }
    }

    /// One characteristic of one profile as `fairness.csv` states it: each group's BPCER and
    /// APCER_max, and the FDR and GARBE rows with their parameter and line.
    struct StatedFairnessGroups {
        var apcerMax: [String: Double] = [:]
        var bpcer: [String: Double] = [:]
        var stored: [String: (value: Double, parameter: String, line: Int)] = [:]
    }

    /// The rows of `fairness.csv` by "profile split level characteristic"; every group rate checked
    /// against its own errors / n on the way.
    static func groupsAndDifferentials(_ table: CSVTable, file: String) throws -> [String: StatedFairnessGroups] {
        let column = try FairnessReport.header.map { try table.requireColumn($0) }
        func field(_ record: CSVTable.Record, _ name: String) -> String {
            record.fields[column[FairnessReport.header.firstIndex(of: name)!]]
        }
        var characteristics: [String: StatedFairnessGroups] = [:]
        for record in table.records {
            let key = ["profile", "split", "level", "characteristic"].map { field(record, $0) }.joined(separator: " ")
            let metric = field(record, "metric"), group = field(record, "group")
            let value = Double(field(record, "value")) ?? .nan
            if ["bpcer", "apcer", "apcer_max"].contains(metric) {
                guard let errors = Int(field(record, "errors")), let n = Int(field(record, "n")), n > 0,
                    (0...n).contains(errors), abs(value - Double(errors) / Double(n)) <= 1e-9
                else {
                    throw StoredRunMismatch(
                        "\(file):\(record.line): \(key) group \(group) \(metric) \(field(record, "value")) "
                            + "is not its errors / n (\(field(record, "errors"))/\(field(record, "n")))")
                }
            }
            switch metric {
            case "bpcer": characteristics[key, default: StatedFairnessGroups()].bpcer[group] = value
            case "apcer_max": characteristics[key, default: StatedFairnessGroups()].apcerMax[group] = value
            case "fdr", "garbe":
                characteristics[key, default: StatedFairnessGroups()].stored[metric] = (
                    value, field(record, "parameter"), record.line
                )
            default: break
            }
        }
        return characteristics
    }

    /// FDR and GARBE as the groups' rates give them (``DemographicDifferentials``), against the rows.
    static func checkDifferentials(_ groups: StatedFairnessGroups, key: String, file: String) throws {
        let names = Set(groups.bpcer.keys).union(groups.apcerMax.keys).sorted()
        let apcer = names.map { groups.apcerMax[$0] ?? .nan }, bpcer = names.map { groups.bpcer[$0] ?? .nan }
        for (metric, stored) in groups.stored {
            guard stored.parameter.hasPrefix("alpha="), let alpha = Double(stored.parameter.dropFirst(6)) else {
                throw StoredRunMismatch("\(file):\(stored.line): \(key) \(metric) has no alpha=")
            }
            let recomputed =
                metric == "fdr"
                ? DemographicDifferentials.fairnessDiscrepancyRate(apcer: apcer, bpcer: bpcer, alpha: alpha)
                : DemographicDifferentials.garbe(apcer: apcer, bpcer: bpcer, alpha: alpha)
            let same =
                (recomputed.isNaN && stored.value.isNaN) || abs(recomputed - stored.value) <= 1e-9
                || (recomputed.isInfinite && recomputed == stored.value)
            guard same else {
                throw StoredRunMismatch(
                    "\(file):\(stored.line): \(key) \(metric) is \(CSVFormat.number(stored.value)); "
                        + "its groups' rates give \(CSVFormat.number(recomputed))")
            }
        }
    }
}
