import Foundation
import Testing
@testable import PadDataset
@testable import PadImage

@Suite struct DatasetCheckTests {
    @Test func reportsMissingUndecodableAndDuplicates() throws {
        let root = temporaryFolder()
        var image = Image(width: 8, height: 8, format: .gray)
        image.pixels[3] = 200
        let jpeg = try ImageEncoder.jpeg(image)
        touch(root + "/bonafide/a.jpg", jpeg)
        touch(root + "/bonafide/copy.jpg", jpeg)
        touch(root + "/attack/print/bad.jpg", Array(jpeg.prefix(20)))
        let check = DatasetCheck.run(try DatasetLoader().load(root))
        #expect(check.byLabel == ["bonafide": 2, "attack": 1])
        #expect(check.problems.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.duplicateContent, .undecodable])
    }
}
