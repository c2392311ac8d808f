import Foundation
import PadImage
import TestSupport

/// A temporary dataset with real images and real broken files.
enum Fixture {
    static func folder(_ name: String = #function) -> String {
        let path = TestFolder.root + "/padbench-bench-\(name.filter(\.isLetter))-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A 96x64 image: a smooth gradient plus a checkerboard whose contrast sets how sharp it is.
    static func image(contrast: Int, seed: Int) -> Image {
        var image = Image(width: 96, height: 64, format: .rgb)
        for y in 0..<64 {
            for x in 0..<96 {
                let checker = ((x / 4 + y / 4) % 2 == 0 ? contrast : -contrast)
                let base = 90 + (x + y + seed * 7) % 60
                let v = UInt8(max(0, min(255, base + checker)))
                let i = (y * 96 + x) * 3
                image.pixels[i] = v
                image.pixels[i + 1] = UInt8(max(0, min(255, Int(v) - 10)))
                image.pixels[i + 2] = UInt8(max(0, min(255, Int(v) - 20)))
            }
        }
        return image
    }

    /// A manifest dataset of 4 sharp bona fide JPEGs (b0-b3, contrast 50-53, quality 95) and 4
    /// blurred print attacks (a0-a3, contrast 2-5, quality 60); `subject(i, isAttack)` fills the
    /// subject column (empty by default).
    static func writeSharpAndBlurred(
        _ root: String, subject: (_ index: Int, _ isAttack: Bool) -> String = { _, _ in "" }
    ) throws {
        var manifest = "path,label,species,split,subject\n"
        for i in 0..<4 {
            write(try ImageEncoder.jpeg(image(contrast: 50 + i, seed: i), quality: 95), root + "/b\(i).jpg")
            manifest += "b\(i).jpg,bonafide,,,\(subject(i, false))\n"
            write(try ImageEncoder.jpeg(image(contrast: 2 + i, seed: i), quality: 60), root + "/a\(i).jpg")
            manifest += "a\(i).jpg,attack,print,,\(subject(i, true))\n"
        }
        try manifest.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
    }

    static func write(_ bytes: [UInt8], _ path: String) {
        try! FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try! Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
