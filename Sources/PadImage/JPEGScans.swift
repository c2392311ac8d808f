/// The scans of a JPEG, counted from its markers before anything is decoded.
///
/// A progressive JPEG is decoded scan by scan, each scan a pass over the whole image's
/// coefficients: the work is scans x pixels, and a 1 MB file can hold hundreds of nearly empty
/// scans. libjpeg-turbo's own guard (`TJFLAG_LIMITSCANS`, at most 500 scans) is checked as it
/// decodes, so a 100-megapixel file of 500 scans took 13 s of CPU and 646 MB before it was
/// refused. Counting the start-of-scan markers first costs one pass over the file's bytes.
///
/// The budget: at most 20 scans, or more for a smaller image while scans x pixels stays within
/// 2 x 10^9 (a 12-megapixel photo may have 166), never more than libjpeg-turbo's 500. Encoders
/// write far fewer: libjpeg's default progression (`jpeg_simple_progression`) has 10 scans for
/// colour and 6 for gray.
package enum JPEGScans {
    /// Scan-pixels a progressive JPEG may cost (scans x width x height).
    package static let budget = 2_000_000_000
    /// Scans any progressive JPEG may have, whatever its size.
    package static let floor = 20
    /// libjpeg-turbo's limit behind `TJFLAG_LIMITSCANS`.
    package static let ceiling = 500

    /// The scans a progressive JPEG of `pixels` pixels may have.
    package static func allowed(pixels: Int) -> Int {
        min(ceiling, max(floor, budget / max(pixels, 1)))
    }

    /// Whether the frame is progressive (SOF2, SOF6, SOF10, SOF14) and how many start-of-scan
    /// markers follow, walking the marker segments (ITU-T T.81 B.1.1) and skipping each scan's
    /// entropy-coded data up to the next marker that is not a stuffed 0xFF00, a restart marker
    /// or fill. Stops at EOI, at the end of the bytes or at anything that is not a marker: what
    /// is malformed is libjpeg-turbo's to report; this only counts.
    package static func count(_ bytes: [UInt8]) -> (progressive: Bool, scans: Int) {
        var progressive = false, scans = 0
        var i = 2 // after SOI
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            if marker == 0xFF {
                i += 1 // fill byte before a marker
                continue
            }
            if marker == 0xD9 { break } // EOI
            if (0xD0...0xD7).contains(marker) || marker == 0x01 {
                i += 2 // restart and TEM markers have no length
                continue
            }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2 else { break }
            if [0xC2, 0xC6, 0xCA, 0xCE].contains(marker) { progressive = true }
            i += 2 + length
            if marker == 0xDA {
                scans += 1
                // Entropy-coded data: up to an 0xFF followed by a byte that ends it.
                while i + 1 < bytes.count {
                    if bytes[i] == 0xFF, bytes[i + 1] != 0x00, !(0xD0...0xD7).contains(bytes[i + 1]),
                        bytes[i + 1] != 0xFF
                    {
                        break
                    }
                    i += 1
                }
            } else if marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
                && !progressive
            {
                // A sequential frame (SOF0, SOF1, ...): one pass per component at most; nothing to bound.
                return (false, scans)
            }
        }
        return (progressive, scans)
    }
}
