import Foundation

/// How many processors this process may run on.
package enum Processors {
    /// The CPUs in this process's affinity mask (Linux `/proc/self/status`, `Cpus_allowed_list`):
    /// what `taskset`, Slurm's CPU binding and a container's cpuset allow, where
    /// `ProcessInfo.activeProcessorCount` counts every online CPU of the machine. Falls back to
    /// that count when the list cannot be read. At least 1.
    package static var available: Int {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }),
            let count = cpuCount(list: line.dropFirst("Cpus_allowed_list:".count)), count > 0
        {
            return count
        }
        return max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The number of CPUs in a Linux CPU list ("0-3,8,10-11" is 7); nil when it is not one.
    package static func cpuCount(list: Substring) -> Int? {
        var count = 0
        for part in list.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",") {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
            switch bounds.count {
            case 1:
                guard bounds[0] != nil else { return nil }
                count += 1
            case 2:
                guard let low = bounds[0], let high = bounds[1], low <= high else { return nil }
                count += high - low + 1
            default: return nil
            }
        }
        return count
    }
}
