import Foundation
import Testing
@testable import PadImport
import TestSupport

/// Vendor exports with BOM and CRLF read like plain ones; an input that is not a regular file is
/// refused with its name.
@Suite struct VendorImportTests {
    static func write(_ text: String, _ name: String = #function) -> String {
        let folder = TestFolder.root + "/padbench-vendor-\(name.filter(\.isLetter))-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/export"
        try! Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func vendorCSVsAcceptBOMCRLFAndQuotes() throws {
        let idemia = Self.write("\u{FEFF}id,status\r\na.jpg,Live\r\n\"b,2.jpg\",Fake\r\n")
        let records = try VendorImporter(format: .idemiaStatus).read([idemia])
        #expect(records.map(\.key) == ["a.jpg", "b,2.jpg"])
        #expect(records.map { $0.values["idemia.live"] } == [1, 0])
        #expect(records[1].origin.hasSuffix(":3"))
        let long = Self.write("\u{FEFF}id,output,value\r\na.jpg,pad.score,0.25\r\na.jpg,x.y,\r\n")
        let longRecords = try VendorImporter(format: .longCSV).read([long])
        #expect(
            longRecords.count == 1 && longRecords[0].values["pad.score"] == 0.25 && longRecords[0].values["x.y"]!.isNaN)
    }

    /// `1e400` overflows a double: an error naming file and line, as in score files; `inf` is legal.
    @Test func longCSVValueThatOverflowsIsAnError() throws {
        let long = Self.write("id,output,value\na.jpg,pad.score,0.25\nb.jpg,pad.score,1e400\n")
        #expect { try VendorImporter(format: .longCSV).read([long]) } throws: {
            "\($0)" == "\(long):3: value '1e400' overflows a double (write inf for an infinite value)"
        }
        let inf = Self.write("id,output,value\na.jpg,pad.score,-inf\n")
        #expect(try VendorImporter(format: .longCSV).read([inf])[0].values["pad.score"] == -.infinity)
    }

    @Test func lunaJSONLinesAcceptBOMAndCRLF() throws {
        let line1 =
            #"{"filename": "a.jpg", "liveness": {"prediction": 1, "#
            + #""estimations": {"probability": 0.9, "quality": 0.8}}}"#
        let line2 = #"{"filename": "b.jpg", "error": {"error_code": 1004, "desc": "x"}}"#
        let path = Self.write("\u{FEFF}" + line1 + "\r\n" + line2 + "\r\n")
        let records = try VendorImporter(format: .lunaOSL).read([path])
        #expect(records.map(\.key) == ["a.jpg", "b.jpg"])
        #expect(records[0].values["luna.liveness"] == 0.9 && records[1].values["luna.error_code"] == 1004)
        let bad = Self.write(line1 + "\r\nnot json\r\n", "bad")
        #expect { try VendorImporter(format: .lunaOSL).read([bad]) } throws: { "\($0)".contains(":2: not JSON") }
    }

    @Test func vendorInputThatIsADirectoryIsRefused() throws {
        let folder = TestFolder.root + "/padbench-hostile-dir-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect { try VendorImporter(format: .idemiaStatus).read([folder]) } throws: { "\($0)".contains("directory") }
    }
}
