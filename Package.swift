// swift-tools-version: 6.1
// padbench: batch evaluation of face presentation-attack detection and face image quality.
// Module layering (docs/ARCHITECTURE.md): each target depends only on targets listed above it.
// Linux only: the code calls Glibc (read/write/close on descriptors, pipes, posix_spawn) directly
// and is built and tested on Debian only, so no other platform is declared.
import Foundation
import PackageDescription

/// The library modules are optimised in debug builds too. Tests run real codecs, cascades and
/// networks on real images; unoptimised, the face cascade took about 13 s per image against 91 ms
/// optimised, so `make test` spent most of its time waiting for `-Onone` loops. Test targets and the
/// orchestration (PadBench, the CLI) stay unoptimised for fast incremental builds; `-enable-testing`
/// still comes with the debug configuration, so `@testable import` works.
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "padbench",
    products: [
        .executable(name: "padbench", targets: ["padbench"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // System libraries, found through pkg-config (Debian: libpng-dev, libturbojpeg0-dev, libzstd-dev).
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        // FFmpeg 5.1 (Debian bookworm): demuxers, decoders and encoders, pixel format conversion.
        .systemLibrary(name: "CAVFormat", pkgConfig: "libavformat", providers: [.apt(["libavformat-dev"])]),
        .systemLibrary(name: "CAVCodec", pkgConfig: "libavcodec", providers: [.apt(["libavcodec-dev"])]),
        .systemLibrary(name: "CSwScale", pkgConfig: "libswscale", providers: [.apt(["libswscale-dev"])]),
        .systemLibrary(name: "CAVUtil", pkgConfig: "libavutil", providers: [.apt(["libavutil-dev"])]),
        // Header-only: the Linux calls Swift cannot make through Glibc (prctl, renameat2, fork+exec).
        .systemLibrary(name: "CLinux"),
        // Header-only: the part of ONNX Runtime's C API padbench calls. The library itself is loaded at
        // run time (dlopen) from PyPI's onnxruntime wheel, so padbench builds without it.
        .systemLibrary(name: "COnnxRuntime"),

        // The words every module shares (outputs, labels, splits, statuses, failure codes, FNV-1a):
        // no dependency at all, so naming an output never links an image codec.
        .target(name: "PadVocabulary", exclude: ["README.md"], swiftSettings: optimisedInDebug),
        // The one RFC 4180 CSV reader and regular-file checks shared by every text input.
        .target(
            name: "PadText", dependencies: ["PadVocabulary"], exclude: ["README.md"], swiftSettings: optimisedInDebug),
        // A dataset's samples as the layers above the codecs hold them (`Sample`, `SampleList`,
        // compact string columns, `group.*`/`attr.*` labels): no image or video codec, so evaluation
        // and reports name samples without linking libpng, libjpeg-turbo or FFmpeg.
        .target(
            name: "PadSamples", dependencies: ["PadVocabulary"], exclude: ["README.md"],
            swiftSettings: optimisedInDebug),
        .target(
            name: "PadImage", dependencies: ["CPNG", "CTurboJPEG", "PadText", "PadVocabulary"], exclude: ["README.md"],
            swiftSettings: optimisedInDebug),
        // Videos (AVI, MOV, MP4, MKV, WebM) read and written through FFmpeg's libraries.
        .target(
            name: "PadVideo", dependencies: ["CAVFormat", "CAVCodec", "CSwScale", "CAVUtil", "PadImage"],
            exclude: ["README.md"], swiftSettings: optimisedInDebug),
        .target(
            name: "PadDataset", dependencies: ["PadImage", "PadVideo", "PadSamples", "PadText", "PadVocabulary"],
            exclude: ["README.md", "Synthesis/README.md"], swiftSettings: optimisedInDebug),
        // ONNX Runtime loaded at run time: one environment per process, one session per model.
        .target(
            name: "PadONNX", dependencies: ["COnnxRuntime", "PadText", "PadVocabulary"], exclude: ["README.md"],
            swiftSettings: optimisedInDebug),
        .target(
            name: "PadEstimators",
            dependencies: [
                "PadImage", "PadONNX", "PadSamples", "PadText", "PadVocabulary",
                .product(name: "Yams", package: "Yams"),
            ],
            exclude: ["README.md"], swiftSettings: optimisedInDebug),
        // External programs as estimators: the JSON-lines protocol (pipelined, batched) and the
        // supervision of the processes that speak it.
        .target(
            name: "PadExternal",
            dependencies: ["CLinux", "PadEstimators", "PadImage", "PadSamples", "PadText", "PadVocabulary"],
            exclude: ["README.md"], swiftSettings: optimisedInDebug),
        // Vendor SDK exports (LUNA, MiSnap, IDEMIA, long CSV) read into records; no image decoding.
        .target(
            name: "PadImport", dependencies: ["PadText", "PadVocabulary"], exclude: ["README.md"],
            swiftSettings: optimisedInDebug),
        // Pure functions over score arrays (and timing histograms, and the seeded bootstraps over
        // plain arrays of samples), so profiles can calibrate with them.
        .target(
            name: "PadMetrics",
            dependencies: ["PadText", "PadVocabulary", .product(name: "Histogram", package: "hdrhistogram-swift")],
            exclude: ["README.md"], swiftSettings: optimisedInDebug),
        .target(
            name: "PadProfiles",
            dependencies: ["PadText", "PadVocabulary", .product(name: "Yams", package: "Yams")],
            exclude: ["README.md"],
            resources: [.copy("Presets")], swiftSettings: optimisedInDebug),
        .target(
            name: "PadArchive", dependencies: ["CZstd", "PadText", "PadVocabulary"], exclude: ["README.md"],
            swiftSettings: optimisedInDebug),
        // The evaluation layer: the measurement table, calibration, decisions and each profile's
        // result; reports and the pipeline build on it, it never measures and never renders.
        .target(
            name: "PadEvaluation",
            dependencies: ["PadSamples", "PadMetrics", "PadProfiles", "PadArchive", "PadText", "PadVocabulary"],
            exclude: ["README.md"], swiftSettings: optimisedInDebug),
        // What people and CI read: report tables, HTML pages, SVG plots, terminal tables, results.json.
        .target(
            name: "PadReport",
            dependencies: ["PadEvaluation", "PadMetrics", "PadProfiles", "PadArchive", "PadText", "PadVocabulary"],
            exclude: ["README.md"], swiftSettings: optimisedInDebug),
        // Finished runs read back, verified against themselves and compared (compare, table, folds,
        // plot); renders through PadReport, which never imports it.
        .target(
            name: "PadRuns",
            dependencies: [
                "PadArchive", "PadEvaluation", "PadMetrics", "PadProfiles", "PadReport", "PadSamples", "PadText",
                "PadVocabulary",
            ],
            exclude: ["README.md"], swiftSettings: optimisedInDebug),
        .target(
            name: "PadBench",
            dependencies: [
                "CLinux", "PadImage", "PadVideo", "PadDataset", "PadEstimators", "PadExternal", "PadImport", "PadONNX",
                "PadProfiles", "PadSamples",
                "PadMetrics",
                "PadArchive", "PadEvaluation", "PadReport", "PadRuns", "PadText", "PadVocabulary",
            ],
            exclude: ["README.md"]
        ),
        .executableTarget(
            name: "padbench",
            dependencies: [
                "PadBench", "PadArchive", "PadDataset", "PadEstimators", "PadEvaluation", "PadExternal", "PadImage",
                "PadImport", "PadMetrics", "PadProfiles", "PadReport", "PadRuns", "PadText", "PadVideo",
                "PadVocabulary",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // `make benchmark` only: padbench's decode timed alone, beside tjbench on the same file.
        .executableTarget(name: "decode-timing", dependencies: ["PadImage"], path: "Benchmarks/DecodeTiming"),
        // `make benchmark` only: padbench's video decode timed alone, beside `ffmpeg -benchmark`.
        .executableTarget(
            name: "video-decode-timing", dependencies: ["PadVideo"], path: "Benchmarks/VideoDecodeTiming"),
        // `make benchmark` only: padbench's landmark evaluation timed per face, beside dlib's C++.
        .executableTarget(
            name: "landmarks-timing", dependencies: ["PadEstimators", "PadImage", "PadDataset"],
            path: "Benchmarks/LandmarksTiming"),

        // What the test targets share: the `.thorough` trait (long equality suites run in CI and with
        // `make test-all`, not in every local run).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "PadVocabularyTests", dependencies: ["PadVocabulary", "TestSupport"]),
        .testTarget(
            name: "PadONNXTests", dependencies: ["PadONNX", "TestSupport", "PadVocabulary"], exclude: ["Fixtures"]),
        .testTarget(
            name: "PadImageTests", dependencies: ["PadImage", "PadVocabulary", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "PadSamplesTests", dependencies: ["PadSamples", "PadVocabulary", "TestSupport"]),
        .testTarget(name: "PadVideoTests", dependencies: ["PadVideo", "PadImage", "TestSupport"]),
        .testTarget(
            name: "PadDatasetTests",
            dependencies: [
                "PadDataset", "PadImage", "PadSamples", "PadText", "PadVideo", "PadVocabulary", "TestSupport",
            ]),
        .testTarget(
            name: "PadEstimatorsTests",
            dependencies: [
                "PadEstimators", "PadExternal", "PadImage", "PadSamples", "PadONNX", "PadVocabulary", "TestSupport",
                "CLinux",
            ],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "PadImportTests", dependencies: ["PadImport", "TestSupport"]),
        .testTarget(
            name: "PadProfilesTests",
            dependencies: ["PadProfiles", "PadImport", "PadText", "PadVocabulary", "TestSupport"]),
        .testTarget(
            name: "PadMetricsTests", dependencies: ["PadMetrics", "PadText", "TestSupport", "PadVocabulary"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "PadArchiveTests", dependencies: ["PadArchive", "PadVocabulary", "TestSupport"]),
        .testTarget(
            name: "PadEvaluationTests",
            dependencies: [
                "PadEvaluation", "PadArchive", "PadSamples", "PadProfiles", "PadText", "PadVocabulary", "TestSupport",
                "PadMetrics",
            ]),
        .testTarget(
            name: "PadReportTests",
            dependencies: [
                "PadReport", "PadEvaluation", "PadProfiles", "PadMetrics", "PadArchive", "PadVocabulary", "TestSupport",
            ]),
        .testTarget(
            name: "PadRunsTests",
            dependencies: ["PadRuns", "PadReport", "PadMetrics", "PadArchive", "PadVocabulary", "TestSupport"]),
        .testTarget(
            name: "PadBenchTests",
            dependencies: [
                "PadBench", "PadArchive", "PadDataset", "PadEstimators", "PadEvaluation", "PadExternal", "PadImage",
                "PadImport", "PadMetrics", "PadProfiles", "PadReport", "PadRuns", "PadSamples", "PadVideo",
                "PadVocabulary", "TestSupport", "PadText",
            ],
            resources: [.copy("Fixtures")]
        ),
        // Runs the built `padbench` executable (exit codes, messages, files written).
        .testTarget(name: "CLITests", dependencies: ["TestSupport"]),
    ]
)

// libFuzzer targets, only with PADBENCH_FUZZ=1 (`make fuzz`, `--sanitize fuzzer`): `swift build`
// and `swift test` never see them. Each is a library-style executable (`-parse-as-library`, no
// main) whose LLVMFuzzerTestOneInput libFuzzer calls; debug builds keep `@testable import`.
if ProcessInfo.processInfo.environment["PADBENCH_FUZZ"] == "1" {
    package.targets.append(.target(name: "FuzzSupport", path: "Fuzz/Targets/FuzzSupport"))
    let fuzzTargets: [(String, [Target.Dependency])] = [
        ("FuzzJPEG", ["PadImage"]), ("FuzzPNG", ["PadImage"]), ("FuzzManifest", ["PadDataset"]),
        ("FuzzScoreFile", ["PadMetrics"]), ("FuzzProfile", ["PadProfiles", "PadBench"]),
        ("FuzzLunaOSL", ["PadImport"]), ("FuzzMisnapMibi", ["PadImport"]), ("FuzzIdemiaStatus", ["PadImport"]),
        ("FuzzLongCSV", ["PadImport"]), ("FuzzArchive", ["PadArchive"]), ("FuzzExternalAnswer", ["PadExternal"]),
        ("FuzzTarRoundTrip", ["PadArchive"]), ("FuzzPNM", ["PadImage"]),
        ("FuzzCascadeXML", ["PadEstimators", "PadImage"]), ("FuzzVideo", ["PadVideo"]),
        ("FuzzShapePredictor", ["PadEstimators", "PadImage"]), ("FuzzOnnxSpec", ["PadEstimators"]),
        ("FuzzResumeJob", ["PadBench"]),
    ]
    for (name, dependencies) in fuzzTargets {
        package.targets.append(
            .executableTarget(
                name: name, dependencies: dependencies + ["FuzzSupport"], path: "Fuzz/Targets/\(name)",
                swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
    }
}
