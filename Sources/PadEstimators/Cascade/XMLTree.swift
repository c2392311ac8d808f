import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A minimal element tree built with Foundation's XMLParser: just what reading OpenCV's
/// `opencv_storage` cascade files needs (element names, text, children).
final class XMLElement {
    let name: String
    var text = ""
    var children: [XMLElement] = []
    init(name: String) { self.name = name }

    func child(_ name: String) -> XMLElement? { children.first { $0.name == name } }
    /// Whitespace-separated numbers of the element's text.
    /// Split on the UTF-8 bytes, not on Characters: a cascade holds some 100,000 numbers, and
    /// grapheme-by-grapheme splitting was most of the time to load one.
    var numbers: [Double] {
        text.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D })
            .compactMap { Double(Substring($0)) }
    }
    var trimmed: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    static func parse(_ data: Data) throws -> XMLElement {
        let builder = Builder()
        let parser = XMLParser(data: data)
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            let line = parser.lineNumber
            throw CascadeError.malformed(
                "XML error at line \(line): \(parser.parserError.map { "\($0)" } ?? "unknown")")
        }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [XMLElement] = []
        var root: XMLElement?
        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            let element = XMLElement(name: elementName)
            stack.last?.children.append(element)
            if root == nil { root = element }
            stack.append(element)
        }
        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            _ = stack.popLast()
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }
    }
}

/// A cascade file that cannot be used; reported before any sample is processed.
public enum CascadeError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(String)
    case malformed(String)
    case unsupported(String)

    public var description: String {
        switch self {
        case .missing(let message), .malformed(let message), .unsupported(let message): return message
        }
    }
}
