import Testing
@testable import PadImage
