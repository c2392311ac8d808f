import Foundation
import Testing
@testable import PadDataset
@testable import PadSamples
@testable import PadImage

@Suite struct ShardTests {
    @Test func shardsAreDisjointCoverAndStable() {
        let samples = (0..<1000).map { Sample(id: "img\($0).jpg", path: "", label: .bonaFide) }
        let shards = (1...4).map { k in samples.filter(Shard(index: k, count: 4).contains).map(\.id) }
        #expect(shards.map(\.count).reduce(0, +) == 1000)
        #expect(Set(shards.flatMap { $0 }).count == 1000)
        #expect(shards.allSatisfy { $0.count > 200 && $0.count < 300 })
        // FNV-1a 64 of "a" (reference value from the FNV specification's test vectors).
        #expect(Shard.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(
            Shard(parsing: "0/4") == nil && Shard(parsing: "5/4") == nil
                && Shard(parsing: "2/4") == Shard(index: 2, count: 4))
    }
}
