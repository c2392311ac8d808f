import Testing
@testable import PadDataset
