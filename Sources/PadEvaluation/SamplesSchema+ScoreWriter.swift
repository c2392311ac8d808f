import PadArchive
import PadText
import PadVocabulary

/// The fast writer of a score run's `samples.csv`: ten million rows are written in seconds by
/// copying fixed byte pieces instead of building a `String` per field.
extension SamplesSchema {
    /// `samples.csv` of a score run (``scores(output:subject:presentation:)``: the row pieces below are its
    /// columns, in its order), formatted into one reused block of memory (ten million rows
    /// take seconds): a row is its id, one fixed text per class and split
    /// (`,,attack,print,eval,`), `ok,,` (or a failure's code and message), the score and `,`.
    package static func writeScores(_ table: MeasurementTable, to writer: CSVWriter) throws {
        let presentations = table.hasPresentations
        // Subjects (when the files name them) as bench writes them, so `compare` can pair by subject.
        let subjects = table.hasSubjects
        try writer.writeRow(
            scores(output: table.columns[0], subject: subjects, presentation: presentations).header)
        let block = CSVBlock(writer: writer)
        // Not `codes`: the status codes below would shadow it (and name every row's presentation
        // by its status code).
        let names = table.presentations.names, presentationCodes = table.presentations.codes
        let pieces = samplePieces(speciesNames: table.speciesNames)
        let classCount = table.speciesNames.count + 1, statuses = table.statuses
        try pieces.withPieces { pieces in
            try table.values[0].withUnsafeBufferPointer { scores in
                try table.splits.withUnsafeBufferPointer { splits in
                    try table.speciesIndex.withUnsafeBufferPointer { species in
                        try statuses.withCodeNumbers { codes, ok in
                            try table.ids.forEachUTF8(0..<table.count) { i, id in
                                try block.appendField(utf8: id)
                                try block.append(
                                    pieces[DatasetFingerprint.splitNumber(splits[i]) * classCount + Int(species[i]) + 1]
                                )
                                if subjects {
                                    var subject = table.subject(i)
                                    try subject.withUTF8 { try block.appendField(utf8: $0) }
                                    try block.append(byte: UInt8(ascii: ","))
                                }
                                if presentations {
                                    var name = names[Int(presentationCodes[i])]
                                    try name.withUTF8 { try block.appendField(utf8: $0) }
                                    try block.append(byte: UInt8(ascii: ","))
                                }
                                if codes[i] == ok {
                                    try block.append(pieces[4 * classCount])
                                } else {
                                    try appendFailure(statuses[i], to: block)
                                }
                                try block.appendNumber(scores[i])
                                try block.append(pieces[4 * classCount + 1])
                            }
                        }
                    }
                }
            }
        }
        try block.flush()
        try writer.close()
    }

    /// The fixed texts of `samples.csv` rows: after the id, one per split (numbered by
    /// ``DatasetFingerprint/splitNumber(_:)``) and class (bona fide, then each species): `,,label,species,split,`;
    /// then `ok,,` and the row's end after the score.
    static func samplePieces(speciesNames: [String]) -> CSVPieces {
        var pieces = CSVPieces()
        for split in DatasetFingerprint.splitOrder {
            for s in -1..<speciesNames.count {
                var text = Array((s < 0 ? ",,bonafide," : ",,attack,").utf8)
                if s >= 0 { CSVFormat.appendField(speciesNames[s], to: &text) }
                text += Array(",\(split.rawValue),".utf8)
                pieces.add(text)
            }
        }
        pieces.add("ok,,")
        pieces.add(",\n")
        return pieces
    }

    /// A failed sample's status code and message (escaped), each followed by a comma.
    static func appendFailure(_ status: SampleStatus, to block: CSVBlock) throws {
        var code = status.field, message: [UInt8] = []
        try code.withUTF8 { try block.append($0) }
        CSVFormat.appendField(status.message, to: &message)
        message.append(UInt8(ascii: ","))
        try block.append(byte: UInt8(ascii: ","))
        try message.withUnsafeBufferPointer { try block.append($0) }
    }
}
