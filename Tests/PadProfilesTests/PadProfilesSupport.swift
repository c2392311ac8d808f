import Testing
@testable import PadProfiles
