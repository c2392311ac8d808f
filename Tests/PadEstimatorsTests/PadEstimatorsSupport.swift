import Testing
@testable import PadEstimators
