import Testing
@testable import PadMetrics
