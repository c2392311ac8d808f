import CLinux
import Foundation
import PadEvaluation
import PadText

#if canImport(Glibc)
import Glibc
import PadVocabulary
#endif

/// The file operations of ``RunFolder``, each failing with one line naming the path.
extension RunFolder {
    /// True when `path` is a symbolic link (not followed).
    static func isLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// A folder holds a padbench run when its `manifest.json` (read up to 16 MiB) is a JSON object
    /// whose `tool.name` is `padbench`: `--force` replaces nothing else.
    static func holdsRun(_ folder: String) -> Bool {
        let path = folder + "/" + RunFile.manifest.name
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size <= 16 << 20,
            let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let tool = object["tool"] as? [String: Any]
        else { return false }
        return tool["name"] as? String == "padbench"
    }

    /// A work folder is padbench's when it carries the work marker, an interrupted bench's
    /// `command.json`, or a padbench manifest (a finished run not yet swapped in), or is empty
    /// (what ``removeRun(_:)`` killed at its very end leaves).
    static func isOurWork(_ path: String) -> Bool {
        guard !isLink(path) else { return false }
        let manager = FileManager.default
        return manager.fileExists(atPath: path + "/" + workMarker)
            || isResumable(path) || holdsRun(path)
            || (try? manager.contentsOfDirectory(atPath: path))?.isEmpty == true
    }

    static func remove(_ path: String) throws {
        do { try FileManager.default.removeItem(atPath: path) } catch {
            throw EvaluationError("\(path): cannot remove: \(reason(error))")
        }
    }

    /// Removes a run or work folder of padbench's with the files that mark it as ours last, so a
    /// kill halfway leaves a folder that is still recognised as ours (and removed next time).
    static func removeRun(_ path: String) throws {
        let markers = [workMarker] + resumableMarkers + [RunFile.manifest.name]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for entry in entries where !markers.contains(entry) { try remove(path + "/" + entry) }
        for entry in markers where entries.contains(entry) { try remove(path + "/" + entry) }
        try remove(path)
    }

    /// rename(2): atomic, and over an empty folder too.
    static func rename(_ from: String, _ to: String) throws {
        guard Glibc.rename(from, to) == 0 else {
            throw EvaluationError("\(to): cannot rename \(from) into place: \(String(cString: strerror(errno)))")
        }
    }

    /// Swaps `a` and `b` in one step; false when the file system cannot (then nothing moved).
    static func exchange(_ a: String, _ b: String) -> Bool { padbench_exchange(a, b) == 0 }

    /// An error's reason without the path (the caller's message names it): strerror for a POSIX
    /// error underneath Foundation's, Foundation's text for its other errors, or the error's own
    /// description.
    package static func reason(_ error: Error) -> String { RegularFile.reason(error) }

    /// One line for any error a command ends with: Foundation's file errors become `path: reason`
    /// (not the raw `NSCocoaErrorDomain` dump), others their own description with line breaks
    /// flattened.
    package static func describe(_ error: Error) -> String {
        let ns = error as NSError
        if ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain {
            let path = ns.userInfo[NSFilePathErrorKey] as? String ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
            return (path.map { "\($0): " } ?? "") + reason(error)
        }
        return "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
