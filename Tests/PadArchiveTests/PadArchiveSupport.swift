import Testing
@testable import PadArchive
