import Foundation
import Testing
@testable import PadArchive
@testable import PadMetrics
@testable import PadReport
import PadProfiles
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Counts elements while parsing a document as XML (the report is written to be well-formed).
final class ElementCounter: NSObject, XMLParserDelegate {
    var counts: [String: Int] = [:]
    var polylinePoints: [Int] = []
    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        counts[name, default: 0] += 1
        if name == "polyline" { polylinePoints.append((attributes["points"] ?? "").split(separator: " ").count) }
    }
}
