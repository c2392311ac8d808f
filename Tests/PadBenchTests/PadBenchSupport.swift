import Testing
@testable import PadBench
