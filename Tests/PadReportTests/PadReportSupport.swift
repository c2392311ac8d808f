import Testing
@testable import PadReport
