import PadArchive
import PadProfiles

/// What a reader must know to read a profile's numbers: gates left out, approximated or skipped,
/// calibration warnings, sanity checks, the scores' polarity and what a presentation-level result
/// counts.
///
/// Typed so that the terminal, the report and summary.csv choose the kinds they show by case:
/// before, they filtered the sentences by prefix ("gates left out", "approximated on", "check: ",
/// "scores are attack-high"), and a reworded sentence silently moved a note from one place to
/// another. `text` is the sentence summary.csv's `note` column and results.json store; it is the
/// only place a note becomes words, and nothing parses it back.
package enum ResultNote: Sendable, Equatable, CustomStringConvertible {
    /// A number a reader could misread with exit 0: flagged in the report's verdict, marked on the
    /// terminal's row, written after `check: `.
    case check(SanityCheck)
    /// A calibrated gate (named by its output and profile line) whose threshold is in doubt.
    case calibration(output: String, line: Int, problem: CalibrationProblem)
    /// Gates whose output the run did not measure: the profile is decided without them.
    case gatesLeftOut(outputs: [String])
    /// Gates decided on a padbench output standing in for the vendor's.
    case approximated([Approximation])
    /// Gates the profile marks as not measurable (`profiles show` gives the reasons).
    case skipped(outputs: [String])
    /// The score file was attack-high: thresholds are shown in its own polarity.
    case attackHighScores
    /// `eval --score OUTPUT`: the direction the output is decided in, and why.
    case direction(output: String, direction: String, why: String, lowerBonaFide: Bool)
    /// A fused swept score: how it was trained, with its weights, or why it could not be.
    case fusion(FusedScore, FusionOutcome)
    /// A presentation-level result: what its rates count.
    case presentations(
        rule: FramesRule, aggregate: FrameAggregate, outputs: [String: FrameAggregate] = [:], presentations: Int,
        frames: Int)

    /// A gate decided on an approximation: the vendor's output and padbench's stand-in.
    package struct Approximation: Sendable, Equatable {
        package var output: String
        package var approximation: String
        package init(output: String, approximation: String) {
            self.output = output
            self.approximation = approximation
        }
    }

    /// Warnings about numbers that look fine and are not.
    package enum SanityCheck: Sendable, Equatable {
        /// The swept score takes one value on the split: no threshold separates anything.
        case constantScore(score: String, split: String, value: Double)
        /// AUC < 0.5: bona fide below attacks, most likely a polarity mistake.
        case invertedScore(score: String, split: String, auc: Double)
        /// More than ``ProfileEvaluator/failureShareFlag`` of a class failed to process.
        case failureShare(className: String, rate: Double, errors: Int, total: Int, split: String)
        /// Species on the reported split that the calibration split never saw.
        case unseenSpecies(split: String, calibrationSplit: String, species: [String])
        /// A gate calibrated on the split models are trained on.
        case calibratedOnTrainSplit(output: String)
        /// A gate calibrated on the very samples a model of the run was trained on.
        case calibratedOnTrainingData(output: String, split: String, model: String)
        /// A fused score trained on the set its rates are reported on (a score file without dev).
        case fusedOnReportedSet(score: String, split: String)
    }

    /// Why a calibrated gate's threshold is in doubt.
    package enum CalibrationProblem: Sendable, Equatable {
        /// The target cannot be met on the calibration split.
        case targetNotMet(target: String, split: String)
        /// An APCER target below 1/n of the smallest species.
        case apcerBelowResolution(target: Double, species: String, count: Int, split: String)
        /// A BPCER target below 1/n bona fide.
        case bpcerBelowResolution(target: Double, count: Int, split: String)
        /// The calibration split could not be used (then the profile has no rates).
        case splitUnusable(split: String, error: String)
    }

    package var isCheck: Bool { if case .check = self { true } else { false } }

    /// Notes about which gates decided: on the terminal, one line per profile.
    package var isAboutGates: Bool {
        switch self {
        case .gatesLeftOut, .approximated: true
        default: false
        }
    }

    package var description: String { text }

    /// The sentence (summary.csv's `note`, results.json, the terminal's warnings).
    package var text: String {
        switch self {
        case .check(let check): "check: " + check.text
        case .calibration(let output, let line, let problem):
            "gate on \(output) (line \(line) of the profile): " + problem.text
        case .gatesLeftOut(let outputs):
            "gates left out, outputs not measured in this run: \(outputs.joined(separator: ", "))"
        case .approximated(let gates):
            "approximated on padbench outputs: "
                + gates.map { "\($0.output) -> \($0.approximation)" }.joined(separator: ", ")
        case .skipped(let outputs):
            "skipped (reasons: padbench profiles show): \(outputs.joined(separator: ", "))"
        case .attackHighScores:
            "scores are attack-high in the file: thresholds are shown in the file's polarity "
                + "(accepted when score <= threshold)"
        case .direction(let output, let direction, let why, let lower):
            "\(output) decided \(direction) (\(why))"
                + (lower ? ": accepted when value <= threshold, thresholds in its own units" : "")
        case .fusion(let fusion, let outcome): outcome.note(fusion)
        case .presentations(let rule, let aggregate, let outputs, let presentations, let frames):
            "counted in presentations: \(presentations) presentations of \(frames) frames, decided by "
                + (rule == .aggregate
                    ? "aggregate ("
                        + outputs.sorted { $0.key < $1.key }.map { "\($0.key) by \($0.value.rawValue), " }.joined()
                        + "\(outputs.isEmpty ? "" : "others by ")\(aggregate.rawValue) of assessable frames)"
                    : rule.text)
        }
    }
}

extension ResultNote.SanityCheck {
    /// The warning without its `check: ` prefix (the report's verdict flags show it so).
    package var text: String {
        switch self {
        case .constantScore(let score, let split, let value):
            "swept score \(score) is constant on \(split) (one value, \(CSVFormat.number(value))): "
                + "no threshold separates anything"
        case .invertedScore(let score, let split, let auc):
            "swept score \(score) has AUC \(CSVFormat.number(auc)) < 0.5 on \(split): scores look attack-high "
                + "(bona fide below attacks); check the polarity (score files: --polarity; eval --score: --direction)"
        case .failureShare(let className, let rate, let errors, let total, let split):
            "\(Self.percent(rate)) of \(className) (\(errors)/\(total)) failed to process on \(split) (over 5%): "
                + "the headline rates leave them out; see the system view"
        case .unseenSpecies(let split, let calibrationSplit, let species):
            "species on \(split) never seen on \(calibrationSplit): \(species.joined(separator: ", ")) "
                + "(the threshold was not chosen with them)"
        case .calibratedOnTrainSplit(let output):
            "gate on \(output) calibrated on the train split, the split models are trained on: its threshold is "
                + "optimistic"
        case .calibratedOnTrainingData(let output, let split, let model):
            "gate on \(output) calibrated on \(split), the samples the model of \(model) was trained on: its "
                + "threshold is optimistic"
        case .fusedOnReportedSet(let score, let split):
            "fused score \(score) trained on \(split), the reported set itself (no dev split): its rates are "
                + "optimistic"
        }
    }

    /// `12.5%`: one decimal.
    static func percent(_ v: Double) -> String {
        let tenths = Int((v * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }
}

extension ResultNote.CalibrationProblem {
    package var text: String {
        switch self {
        case .targetNotMet(let target, let split): "target \(target) cannot be met on \(split)"
        case .apcerBelowResolution(let target, let species, let count, let split):
            "APCER target \(CSVFormat.number(target)) is below 1/n for species \(species) (n = \(count) on "
                + "\(split)): the data cannot resolve it; the threshold is the one for APCER 0 of that species"
        case .bpcerBelowResolution(let target, let count, let split):
            "BPCER target \(CSVFormat.number(target)) is below 1/n (n = \(count) bona fide on \(split)): "
                + "the data cannot resolve it"
        case .splitUnusable(let split, let error): "calibration split '\(split)' cannot be used: \(error)"
        }
    }
}
