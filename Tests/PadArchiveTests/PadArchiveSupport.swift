import Foundation
import TestSupport

/// A fresh temporary folder per test.
func temporaryFolder(_ name: String = #function) -> String {
    let path = TestFolder.root + "/padbench-archive-\(name.filter(\.isLetter))-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Runs a command and returns its standard output and exit status.
func run(_ arguments: [String], in folder: String) -> (output: String, status: Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = Pipe()
    try! process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (String(decoding: data, as: UTF8.self), process.terminationStatus)
}
