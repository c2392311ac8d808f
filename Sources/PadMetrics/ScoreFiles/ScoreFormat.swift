import PadText
/// Score-file formats `padbench eval` reads (docs/commands.md: "eval --scores"; examples in docs/formats.md).
package enum ScoreFormat: String, Sendable, CaseIterable {
    /// padbench generic CSV: `id,label,species,score[,split]`, label `bonafide`/`attack`.
    case generic
    /// bob 4-column: `claimed_id real_id test_label score`; bona fide when claimed_id == real_id,
    /// attack when real_id is `attack` (species from a `attack/<species>/...` label path).
    case bob4
    /// bob 5-column: `claimed_id model_label real_id test_label score`.
    case bob5
    /// bob.pad CSV: header `claimed_id,test_label,is_bonafide,attack_type,score` (+ extra columns).
    case bobpad
    /// pyeer: two files, genuine (bona fide) and impostor (attack), score in the last column.
    case pyeer
}

/// Score polarity of a file. padbench's own is bona-fide-high; NIST PAD style files have attack-high
/// scores in [-1, 1] and are converted by negation.
package enum ScorePolarity: String, Sendable {
    case bonafideHigh = "bonafide-high"
    case attackHigh = "attack-high"
}

/// A file that cannot be read as scores; names file and line.
package struct ScoreFileError: Error, Sendable, Equatable, CustomStringConvertible {
    package var file: String
    package var line: Int
    package var message: String
    package init(file: String, line: Int, _ message: String) {
        self.file = file
        self.line = line
        self.message = message
    }
    package var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }

    /// At most 200 characters of an offending input, so a 10 MB field does not flood the terminal.
    package static func quoted(_ text: String) -> String { TextBytes.quote(text) }
}
