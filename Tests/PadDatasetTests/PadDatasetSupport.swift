import Foundation
import Testing
@testable import PadImage
import TestSupport

func temporaryFolder(_ name: String = #function) -> String {
    let path = TestFolder.root + "/padbench-dataset-\(name.filter(\.isLetter))-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func touch(_ path: String, _ bytes: [UInt8] = [0xFF, 0xD8, 0xFF]) {
    try! FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try! Data(bytes).write(to: URL(fileURLWithPath: path))
}
