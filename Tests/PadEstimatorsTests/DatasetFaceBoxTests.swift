import Foundation
import Testing
@testable import PadSamples
@testable import PadEstimators
@testable import PadImage
import PadVocabulary

/// Dataset face boxes never reach an Int conversion out of range.
@Suite struct DatasetFaceBoxTests {
    @Test(arguments: [
        Box(x: 1e300, y: 0, width: 10, height: 10), Box(x: 0, y: 0, width: .infinity, height: 10),
        Box(x: .nan, y: 0, width: 10, height: 10), Box(x: 500, y: 500, width: 10, height: 10),
    ])
    func datasetBoxOutsideTheImageIsASampleErrorNotACrash(_ box: Box) throws {
        let face = try FaceEstimator(cascadeDirectory: "/usr/share/opencv4", useDatasetBox: true)
        var input = EstimatorInput(
            sample: Sample(id: "a", path: "a", label: .bonaFide, faceBox: box),
            image: Image(width: 64, height: 48, format: .gray))
        #expect(throws: EstimatorFailure.self) { try face.measure(&input) }
        // A box partly outside is clipped to the image.
        var partial = EstimatorInput(
            sample: Sample(id: "b", path: "b", label: .bonaFide, faceBox: Box(x: -10, y: 40, width: 30, height: 30)),
            image: Image(width: 64, height: 48, format: .gray))
        let values = try face.measure(&partial)
        #expect(Array(values[1...4]) == [0, 40, 20, 8])
        #expect(partial.face == Box(x: 0, y: 40, width: 20, height: 8))
    }
}
