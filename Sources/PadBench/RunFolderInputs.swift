import Foundation
import PadEvaluation

#if canImport(Glibc)
import Glibc
#endif

/// `--force` never deletes an input: the run folder may not be an input of its command, contain
/// one or lie inside one (a score file, an archive, a model, a cascade folder, a profile, a vendor
/// export). Paths are compared resolved (links, `.` and `..` followed through `realpath(3)` as far
/// as they exist), so `--out D`, `--out D/..` and `--out link-to-D` are all caught.
///
/// The dataset's root is the one input a run may lie inside (`--dataset .` with the default
/// `--out reports/...`, or runs kept beside the images): no layout reads a run folder's files as
/// samples, and a run is only ever replaced when it holds a padbench manifest, so nothing of the
/// dataset can go. It may not be, or lie inside, the run folder.
///
/// ```swift
/// try RunFolderInputs.refuseOverlap(out: "reports/run", inputs: ["s.csv"], datasetRoot: "datasets/sample")
/// ```
package enum RunFolderInputs {
    package static func refuseOverlap(out: String, inputs: [String], datasetRoot: String? = nil) throws {
        let target = resolved(out)
        let all = inputs.map { ($0, true) } + (datasetRoot.map { [($0, false)] } ?? [])
        for (input, enclosing) in all where !input.isEmpty {
            let source = resolved(input)
            let relation: String
            if source == target {
                relation = "is"
            } else if inside(source, target) {
                relation = "contains"
            } else if enclosing && inside(target, source) {
                relation = "lies inside"
            } else {
                continue
            }
            throw EvaluationError(
                "\(out): --out \(relation) the input \(input); padbench never writes over its inputs: "
                    + "choose another --out")
        }
    }

    /// True when `path` lies strictly inside `folder`.
    static func inside(_ path: String, _ folder: String) -> Bool {
        folder == "/" ? path != "/" : path.hasPrefix(folder + "/")
    }

    /// The absolute path with links resolved: `realpath` of the longest existing prefix, the rest
    /// appended with `.` and `..` applied.
    static func resolved(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var existing = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var rest: [String] = []
        while true {
            let candidate = "/" + existing.joined(separator: "/")
            if let real = realpath(candidate, nil) {
                defer { free(real) }
                var parts = String(cString: real).split(separator: "/").map(String.init)
                for part in rest {
                    if part == ".." { _ = parts.popLast() } else if part != "." { parts.append(part) }
                }
                return "/" + parts.joined(separator: "/")
            }
            guard let last = existing.popLast() else { return absolute }
            rest.insert(last, at: 0)
        }
    }
}
