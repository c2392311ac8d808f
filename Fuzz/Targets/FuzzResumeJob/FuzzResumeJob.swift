import Foundation
import PadBench

/// A resume job (`RUN.partial/job.json`) as `bench --resume` reads it: JSON decoding, the command
/// line's rules (``BenchOptionRules``) and the options fingerprint. A job it accepts must build
/// its loader and write itself back to a job that reads the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResumeJob(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let job = try? ResumeJob.decode(bytes, path: "job.json") else { return 0 }
    _ = job.loader
    _ = job.layout
    guard let written = try? job.encoded(), let again = try? ResumeJob.decode(written, path: "job.json") else {
        preconditionFailure("an accepted job does not read back after writing it")
    }
    var expected = job
    expected.optionsFingerprint = again.optionsFingerprint
    precondition(again == expected, "a job written back reads differently")
    return 0
}
