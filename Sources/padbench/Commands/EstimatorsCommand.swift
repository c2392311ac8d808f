import ArgumentParser
import PadBench
import PadEstimators
import PadImage
import PadText

/// `padbench estimators list`: every built-in estimator with its outputs, ranges, directions,
/// version and parameters.
struct EstimatorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "estimators",
        abstract: "List the built-in estimators and their outputs.",
        subcommands: [List.self, Detect.self],
        defaultSubcommand: List.self
    )

    /// `padbench estimators detect`: run a cascade on images and print the grouped detections,
    /// for checking the detector against OpenCV or a dataset's boxes.
    struct Detect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print cascade detections (x y width height neighbors) for images.")

        @Argument(help: "Images.") var images: [String]
        @Option(help: "Cascade XML file.") var cascade: String =
            EstimatorOptions.defaultCascadeDirectory + "/haarcascades/haarcascade_frontalface_default.xml"
        @Option(help: "Scale factor between pyramid levels.") var scaleFactor: Double = 1.1
        @Option(help: "Minimum neighbours to keep a detection.") var minNeighbors: Int = 3
        @Option(help: "Minimum window size in pixels.") var minSize: Int = 0

        func run() throws {
            let detector = CascadeDetector(cascade: try CascadeClassifier(contentsOfFile: cascade))
            for path in images {
                let plane = GrayPlane(try ImageDecoder().decode(fileAt: path))
                let found = detector.detect(
                    in: plane, scaleFactor: scaleFactor, minNeighbors: minNeighbors, minSize: (minSize, minSize),
                    workers: Processors.available)
                print(
                    path + ": "
                        + found.map { "\($0.x) \($0.y) \($0.width) \($0.height) \($0.neighbors)" }.joined(
                            separator: "; "))
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print every estimator with its outputs, ranges, directions, version and parameters.")

        @Option(help: "Folder holding OpenCV's cascade XML files.")
        var cascades: String = EstimatorOptions.defaultCascadeDirectory

        @Option(help: "dlib shape-predictor file of the landmarks estimator.")
        var landmarkModel: String = EstimatorOptions.defaultLandmarkModel

        @OptionGroup var networks: NetworkOptions

        func run() throws {
            var options = EstimatorOptions(cascadeDirectory: cascades)
            options.landmarkModelPath = landmarkModel
            networks.apply(to: &options)
            print(try EstimatorCatalog.describe(options: options))
        }
    }
}
