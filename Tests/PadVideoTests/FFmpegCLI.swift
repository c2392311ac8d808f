import Foundation
import TestSupport

/// The `ffmpeg` command line (Debian's `ffmpeg`, the same 5.1 libraries padbench links): makes
/// test clips and decodes reference frames. Clips are made in a temporary folder per test, so
/// no video is committed and nothing is downloaded.
enum FFmpegCLI {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs ffmpeg with `arguments`; its standard output.
    @discardableResult
    static func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-nostdin", "-hide_banner", "-loglevel", "error"] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read before waiting: a full pipe would block ffmpeg.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "ffmpeg \(arguments): \(String(decoding: message, as: UTF8.self))")
        }
        return data
    }

    /// A clip of `frames` frames of FFmpeg's `testsrc2` pattern (moving, so every frame differs).
    static func makeClip(
        _ path: String, size: String = "64x48", frames: Int = 12, codec: [String], extra: [String] = []
    )
        throws
    {
        try run(
            ["-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=10", "-frames:v", String(frames)] + codec + extra
                + [path])
    }

    /// The frames numbered `indices` as ffmpeg decodes them to rgb24 (its auto-rotation on),
    /// one byte array per frame.
    static func referenceFrames(_ path: String, indices: [Int], frameBytes: Int) throws -> [[UInt8]] {
        let select = indices.map { "eq(n\\,\($0))" }.joined(separator: "+")
        let data = try run([
            "-threads", "1", "-i", path, "-vf", "select='\(select)'", "-vsync", "passthrough", "-pix_fmt", "rgb24",
            "-f", "rawvideo", "-",
        ])
        let bytes = [UInt8](data)
        guard bytes.count == frameBytes * indices.count else {
            throw Failure(description: "ffmpeg gave \(bytes.count) bytes for \(indices.count) frames of \(frameBytes)")
        }
        return (0..<indices.count).map { Array(bytes[($0 * frameBytes)..<(($0 + 1) * frameBytes)]) }
    }

    /// Writes a display matrix into an MP4/MOV file's first `tkhd` box (version 0: the matrix is
    /// 40 bytes after the box type), as a phone does for portrait video; nine big-endian values.
    static func setDisplayMatrix(_ path: String, _ matrix: [Int32]) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let tag = Array("tkhd".utf8)
        guard let at = (0..<(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == tag }),
            bytes[at + 4] == 0
        else { throw Failure(description: "\(path): no version-0 tkhd box") }
        for (k, value) in matrix.enumerated() {
            let v = UInt32(bitPattern: value)
            for b in 0..<4 { bytes[at + 44 + 4 * k + b] = UInt8((v >> (24 - 8 * UInt32(b))) & 0xFF) }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    static func temporaryFolder() throws -> String {
        let folder = TestFolder.root + "/padbench-video-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }
}
