import ArgumentParser
import Foundation
import PadBench
import PadDataset
import PadProfiles

/// Small helpers shared by the subcommands; errors become ArgumentParser validation errors
/// that print the located message and exit non-zero before any work starts.
enum CommandSupport {
    static func loadDataset(_ path: String, layout: String?, ouluProtocol: Int? = nil, ouluFold: Int? = nil) throws -> LoadedDataset {
        var chosen: DatasetLayout?
        if let layout {
            guard let parsed = DatasetLayout(rawValue: layout) else {
                throw ValidationError("unknown layout '\(layout)' (\(DatasetLayout.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            chosen = parsed
        }
        let loaded: LoadedDataset
        do {
            loaded = try DatasetLoader(ouluProtocol: ouluProtocol, ouluFold: ouluFold).load(path, layout: chosen)
        } catch {
            throw ValidationError("\(error)")
        }
        if !loaded.problems.isEmpty {
            let shown = loaded.problems.prefix(20).map { "  \($0)" }.joined(separator: "\n")
            let more = loaded.problems.count > 20 ? "\n  ... and \(loaded.problems.count - 20) more" : ""
            throw ValidationError("dataset \(path) has \(loaded.problems.count) problem(s); fix them first (padbench dataset check):\n\(shown)\(more)")
        }
        if loaded.samples.isEmpty { throw ValidationError("dataset \(path) has no images") }
        return loaded
    }

    static func loadProfiles(_ list: String) throws -> [Profile] {
        let references = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !references.isEmpty else { throw ValidationError("--profiles is empty") }
        do {
            return try ProfileLoader(catalogue: EstimatorCatalog.outputs()).resolveAll(references)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    static func defaultRunFolder(name: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "reports/\(name)-\(formatter.string(from: Date()))"
    }
}
