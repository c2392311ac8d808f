import Foundation
import Testing
@testable import PadEstimators
import TestSupport

/// Every rectangle and index of a cascade is checked when it is loaded, so the detector can
/// never read outside its integral image (OpenCV's real cascades, edited one value at a time).
@Suite struct CascadeValidationTests {
    static let haar = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml"
    static let lbp = "/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml"

    /// The cascade with the first occurrence of `old` replaced by `new`, written to a temporary file.
    static func edited(_ path: String, _ old: String, _ new: String) throws -> String {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let range = try #require(text.range(of: old))
        let out = TestFolder.root + "/padbench-cascade-\(UUID().uuidString).xml"
        try text.replacingCharacters(in: range, with: new).write(toFile: out, atomically: true, encoding: .utf8)
        return out
    }

    static func refused(_ path: String, _ fragment: String) -> Bool {
        do {
            _ = try CascadeClassifier(contentsOfFile: path)
            return false
        } catch {
            return "\(error)".contains(fragment)
        }
    }

    @Test func realCascadesStillLoad() throws {
        #expect(try CascadeClassifier(contentsOfFile: Self.haar).stages.count == 25)
        #expect(try CascadeClassifier(contentsOfFile: Self.lbp).stages.count == 20)
    }

    @Test(arguments: ["6 4 12 9 -1.", "6 4 19 9 -1.", "-1 4 12 9 -1.", "6 4 12 1e300 -1.", "6 4 12 9 nan"].dropFirst())
    func haarRectangleOutsideTheWindowIsRefused(_ rect: String) throws {
        let path = try Self.edited(Self.haar, "6 4 12 9 -1.", rect)
        #expect(Self.refused(path, "window"))
    }

    @Test(arguments: ["0 0 9 5", "0 0 3 -5", "20 0 3 5"])
    func lbpBlocksOutsideTheWindowAreRefused(_ rect: String) throws {
        let path = try Self.edited(Self.lbp, "0 0 3 5</rect>", rect + "</rect>")
        #expect(Self.refused(path, "window"))
    }

    @Test(arguments: [
        "0 -1 1e300 -3.1511999666690826e-02", "0 -1 99999 -3.1511999666690826e-02", "0 -1 -1 -3.1511999666690826e-02",
        "0 -1 0.5 -3.1511999666690826e-02", "7 -1 0 -3.1511999666690826e-02",
    ])
    func badNodeIndicesAreRefused(_ nodes: String) throws {
        let path = try Self.edited(Self.haar, "0 -1 0 -3.1511999666690826e-02", nodes)
        #expect(Self.refused(path, "stage 0 classifier 0"))
    }
}
