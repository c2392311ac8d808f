import Foundation
import PadText
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A minimal element tree built with Foundation's XMLParser: just what reading OpenCV's
/// `opencv_storage` cascade files needs (element names, text, children).
///
/// Nesting is limited to ``maximumDepth`` while parsing (OpenCV's cascades nest 6 deep; a file
/// nested 50,000 deep used to overflow the stack when its tree was released, one recursive
/// `deinit` per level), and the tree is released without recursion in any case.
final class XMLElement {
    /// Deepest element nesting accepted; deeper is a malformed cascade.
    static let maximumDepth = 64

    let name: String
    var text = ""
    var children: [XMLElement] = []
    init(name: String) { self.name = name }

    /// Releases the subtree from a work list, so no `deinit` runs inside another: an element
    /// held only by the list gives its children to the list before it goes. An element still
    /// held elsewhere (`root.child("cascade")` outlives `root`) keeps its children.
    deinit {
        var pending = children
        children = []
        while var element = pending.popLast() {
            guard isKnownUniquelyReferenced(&element) else { continue }
            pending.append(contentsOf: element.children)
            element.children = []
        }
    }

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
        // FoundationXML traps on an element name that is not UTF-8 (libxml2 hands it over; found
        // by FuzzCascadeXML): OpenCV's cascades are ASCII, so anything else is refused first.
        guard String(validating: data, as: UTF8.self) != nil else {
            throw CascadeError.malformed("not UTF-8 text (OpenCV's cascades are ASCII)")
        }
        let builder = Builder()
        let parser = XMLParser(data: data)
        parser.delegate = builder
        let parsed = parser.parse()
        if let tooDeep = builder.tooDeepAtLine {
            throw CascadeError.malformed(
                "XML error at line \(tooDeep): elements nested more than \(maximumDepth) deep")
        }
        guard parsed, let root = builder.root else {
            let line = parser.lineNumber
            let message = parser.parserError.map { "\($0)" } ?? "unknown"
            throw CascadeError.malformed("XML error at line \(line): \(TextBytes.quote(message))")
        }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [XMLElement] = []
        var root: XMLElement?
        var tooDeepAtLine: Int?
        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            guard stack.count < XMLElement.maximumDepth else {
                if tooDeepAtLine == nil { tooDeepAtLine = parser.lineNumber }
                parser.abortParsing()
                return
            }
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
package enum CascadeError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(String)
    case malformed(String)
    case unsupported(String)

    package var description: String {
        switch self {
        case .missing(let message), .malformed(let message), .unsupported(let message): return message
        }
    }
}
