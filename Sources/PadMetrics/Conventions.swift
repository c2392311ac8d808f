/// The conventions every padbench report records, so that two archives can always be compared
/// (docs/run-files.md, "Conventions"). Keys are stable; values are what this version does.
package enum Conventions {
    package static let current: [String: String] = [
        "standard": "ISO/IEC 30107-3 (APCER per PAI species, BPCER)",
        "polarity": "higher score = more bona fide; converted on import where a source is attack-high",
        "tie_rule": "accepted when score >= threshold",
        "apcer_headline": "maximum over species (apcer_max, with its species); pooled APCER only as apcer_pooled",
        "target_rule":
            "bpcer@apcer=x: bob.pad.base apcer_threshold, the maximum over species of bob.measure far_threshold on "
            + "each species (nextafter(highest attack score) when no score qualifies); bpcer100/20/10: the best "
            + "BPCER with APCER_max <= 1%/5%/10% (the lowest threshold meeting it); "
            + "apcer@bpcer=x: highest bona fide score t with BPCER(t) <= x; "
            + "a target no threshold meets is reported as not met (target_met 0, value empty)",
        "eer_rule":
            "bob.measure eer_threshold on the swept score's finite candidates (lowest score, then between "
            + "consecutive distinct scores at bob's midpoint (a + b) / 2), minimise |APCER_max - BPCER|, last on "
            + "ties; the threshold is bob's exact double, printed as its shortest round-trip form; eer = mean of "
            + "the two rates as one exact fraction; eer_pooled: the same over all attacks pooled (bob.pad.base)",
        "calibration_resolution":
            "a target below 1/n of the smallest calibrating species "
            + "(or bona fide count) is warned about on the terminal and in the summary note",
        "score_ids":
            "generic files: ids must be unique (a repeat is an error); bob formats: "
            + "a repeated test_label (frame scores) becomes label#2, label#3, ...",
        "confidence_interval":
            "95% Clopper-Pearson (exact binomial) over samples; "
            + "with subjects also a 95% subject-clustered percentile bootstrap (1000 replicates, seed 30107)",
        "fta":
            "headline rates over processed samples; failures counted (n_failed) and reported as bpnrr/apnrr; "
            + "system view bpcer_system and apcer_max_system folds them in",
        "acer": "(apcer_max + bpcer) / 2, reported but not conformant to the current standard",
        "curves":
            "exact steps over all distinct scores of the swept score, other gates held fixed (a sample failing "
            + "another gate, or with a score not assessable, is rejected at every threshold and adds no threshold); "
            + "no point at an infinite threshold unless a score is infinite; "
            + "the last point is the shortest decimal above the highest score",
        "one_class":
            "a split with one class keeps the other class's rates (APCER per species, "
            + "or BPCER); the missing rate is empty with a note",
        "report_split":
            "eval when the data has an eval split, otherwise all samples; calibrated thresholds are chosen on the "
            + "calibration split (default dev; score files: dev from --dev or the split column, else the reported "
            + "set, said so in threshold_source); a profile without "
            + "its calibration split is reported as not calibrated",
        "face_choice": "the detection with the most neighbours (ties: larger area, then leftmost)",
        "profile_options":
            "each distinct option set is measured once (columns <output>@<options>); a profile reads only its own",
        "rates": "CSV and JSON: fractions (0.031); report.html and terminal: percent with counts (3.1% (31/1000))",
    ]
}
