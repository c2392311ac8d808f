/// The conventions every padbench report records, so that two archives can always be compared
/// (reference/metrics.md). Keys are stable; values are what this version does.
public enum Conventions {
    public static let current: [String: String] = [
        "standard": "ISO/IEC 30107-3 (APCER per PAI species, BPCER)",
        "polarity": "higher score = more bona fide; converted on import where a source is attack-high",
        "tie_rule": "accepted when score >= threshold",
        "apcer_headline": "maximum over species (apcer_max, with its species); pooled APCER only as apcer_pooled",
        "target_rule": "bpcer@apcer=x: lowest attack score t with every species' APCER(t) <= x (bob.measure far_threshold per species); apcer@bpcer=x: highest bona fide score t with BPCER(t) <= x",
        "eer_rule": "bob.measure eer_threshold: midpoints between consecutive distinct scores, minimise |APCER_max - BPCER|, last on ties; eer = mean of the two",
        "confidence_interval": "95% Clopper-Pearson (exact binomial) over samples; with subjects also a 95% subject-clustered percentile bootstrap (1000 replicates, seed 30107)",
        "fta": "headline rates over processed samples; failures counted (n_failed) and reported as bpnrr/apnrr; system view bpcer_system and apcer_max_system folds them in",
        "acer": "(apcer_max + bpcer) / 2, reported but not conformant to the current standard",
        "curves": "exact steps over all distinct scores of the swept score, other gates held fixed (a sample failing another gate is rejected at every threshold)",
        "report_split": "eval when the dataset has an eval split, otherwise all samples; calibrated thresholds are chosen on the calibration split (default dev)",
        "rates": "CSV and JSON: fractions (0.031); report.html and terminal: percent with counts (3.1% (31/1000))",
    ]
}
