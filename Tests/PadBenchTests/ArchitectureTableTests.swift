import Foundation
import Testing

/// docs/ARCHITECTURE.md's module table is the architecture of record. These tests hold its
/// "imports" column against the two places that can drift from it: the `import` lines of each
/// module's sources and the module's dependencies in Package.swift.
@Suite struct ArchitectureTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    /// Modules of the toolchain and the C library: imported, never declared in Package.swift.
    static let systemModules: Set<String> = ["Foundation", "FoundationXML", "Glibc", "Dispatch", "Synchronization"]

    /// Module name -> the table's "imports" entries ("-" is the empty set). A row may name several
    /// modules (`CPNG`, `CTurboJPEG`, `CZstd`), which then share the cell.
    static func table() throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: root + "/docs/ARCHITECTURE.md", encoding: .utf8)
        guard let start = text.range(of: "| module | holds | imports |") else {
            Issue.record("docs/ARCHITECTURE.md has no '| module | holds | imports |' table")
            return [:]
        }
        var rows: [String: Set<String>] = [:]
        for line in text[start.upperBound...].split(separator: "\n").dropFirst() {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 4 else { continue }
            let imports =
                cells[3] == "-" ? [] : cells[3].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            for name in cells[1].split(separator: ",") {
                rows[name.trimmingCharacters(in: CharacterSet(charactersIn: " `"))] = Set(imports)
            }
        }
        return rows
    }

    /// Every module imported by a Swift file under Sources/<module>, ignoring the
    /// `#elseif canImport(Darwin)` branches (imports of Darwin).
    static func imports(of module: String) throws -> Set<String> {
        try imports(inFolder: root + "/Sources/" + module)
    }

    /// Every module imported by a Swift file under `folder` (a module of Sources or of Tests).
    static func imports(inFolder folder: String) throws -> Set<String> {
        var found: Set<String> = []
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
                let start = words.first.map { ["public", "package", "internal"].contains(String($0)) } == true ? 1 : 0
                guard words.count == start + 2, words[start] == "import" else { continue }
                found.insert(String(words[start + 1]))
            }
        }
        found.remove("Darwin")
        return found
    }

    /// Target name -> the names in its `dependencies:` list (products by their product name),
    /// read from Package.swift's text: targets are declared with literal names and lists there.
    static func packageDependencies() throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: root + "/Package.swift", encoding: .utf8)
        let targetPattern = try Regex(
            #"\.(?:target|executableTarget|systemLibrary|testTarget)\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?"#
        )
        let namePattern = try Regex(#"(?:product\(name:\s*)?"([^"]+)"(?:,\s*package:\s*"[^"]+"\))?"#)
        var result: [String: Set<String>] = [:]
        for match in text.matches(of: targetPattern) {
            guard let name = match.output[1].substring.map(String.init) else { continue }
            var dependencies: Set<String> = []
            if let list = match.output[2].substring {
                for dependency in list.matches(of: namePattern) {
                    if let dependencyName = dependency.output[1].substring {
                        dependencies.insert(String(dependencyName))
                    }
                }
            }
            result[name] = dependencies
        }
        return result
    }

    static func sourceModules() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root + "/Sources").filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/Sources/" + $0, isDirectory: &isFolder)
                && isFolder.boolValue
        }.sorted()
    }

    @Test func everyModuleHasARow() throws {
        let table = try Self.table()
        for module in try Self.sourceModules() {
            #expect(table[module] != nil, "docs/ARCHITECTURE.md's module table has no row for \(module)")
        }
    }

    @Test func theImportsColumnIsWhatTheSourcesImport() throws {
        let table = try Self.table()
        for module in try Self.sourceModules() {
            guard let listed = table[module] else { continue }
            let imported = try Self.imports(of: module)
            #expect(
                imported == listed,
                "\(module): sources import \(imported.sorted()), docs/ARCHITECTURE.md lists \(listed.sorted())")
        }
    }

    @Test func theImportsColumnIsWhatPackageSwiftDeclares() throws {
        let table = try Self.table()
        let declared = try Self.packageDependencies()
        for module in try Self.sourceModules() {
            guard let listed = table[module] else { continue }
            #expect(declared[module] != nil, "Package.swift declares no target \(module)")
            let dependencies = declared[module] ?? []
            #expect(
                dependencies == listed.subtracting(Self.systemModules),
                "\(module): Package.swift depends on \(dependencies.sorted()), docs/ARCHITECTURE.md lists \(listed.sorted())"
            )
        }
    }

    /// The test targets too: every module a test target's files import (beyond the toolchain's)
    /// is one Package.swift declares for it, so no test leans on a module reaching it by accident.
    @Test func testTargetsImportOnlyWhatTheyDeclare() throws {
        let declared = try Self.packageDependencies()
        let targets = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/Tests").filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: Self.root + "/Tests/" + $0, isDirectory: &isFolder)
                && isFolder.boolValue && declared[$0] != nil
        }.sorted()
        #expect(targets.contains("CLITests") && targets.contains("TestSupport") && targets.count > 12)
        for target in targets {
            let imported = try Self.imports(inFolder: Self.root + "/Tests/" + target)
                .subtracting(Self.systemModules).subtracting(["Testing", "XCTest"])
            let undeclared = imported.subtracting(declared[target] ?? [])
            #expect(
                undeclared.isEmpty, "\(target) imports \(undeclared.sorted()) without declaring them in Package.swift")
        }
    }

    /// The parsers above are what the three tests rest on: check them on a known target.
    @Test func theParsersReadKnownEntries() throws {
        #expect(try Self.packageDependencies()["PadImage"] == ["CPNG", "CTurboJPEG", "PadText", "PadVocabulary"])
        #expect(try Self.packageDependencies()["padbench"]?.contains("ArgumentParser") == true)
        #expect(try Self.imports(of: "PadProfiles").contains("Yams"))
        #expect(try Self.table()["CZstd"] == [])
    }

    /// The vocabulary depends on nothing (not even Foundation), and the modules that only name
    /// outputs, labels, splits or hashes (profiles, archives, vendor imports) do not reach the
    /// image and video codecs through PadDataset.
    @Test func vocabularyLinksNoCodec() throws {
        let declared = try Self.packageDependencies()
        #expect(declared["PadVocabulary"] == [])
        #expect(try Self.imports(of: "PadVocabulary").isEmpty)
        for module in ["PadProfiles", "PadArchive", "PadImport"] {
            #expect(declared[module]?.isDisjoint(with: ["PadDataset", "PadImage", "PadVideo"]) == true, "\(module)")
            #expect(try !Self.imports(of: module).contains("PadDataset"), "\(module)")
        }
    }

    /// Every target `module` reaches through Package.swift, directly or through other targets.
    static func reachable(from module: String, _ declared: [String: Set<String>]) -> Set<String> {
        var seen: Set<String> = [], stack = [module]
        while let next = stack.popLast() {
            for dependency in declared[next] ?? [] where seen.insert(dependency).inserted { stack.append(dependency) }
        }
        return seen
    }

    /// The samples, the evaluation layer, the reports and the stored runs name samples through
    /// PadSamples: none of them reaches PadDataset or an image or video codec, directly or through
    /// another target. The reports render what PadRuns computes and never reach PadRuns.
    @Test func samplesEvaluationAndReportsLinkNoCodec() throws {
        let declared = try Self.packageDependencies()
        #expect(declared["PadSamples"] == ["PadVocabulary"])
        let codecs: Set<String> = [
            "PadDataset", "PadImage", "PadVideo", "CPNG", "CTurboJPEG", "CAVFormat", "CAVCodec", "CSwScale", "CAVUtil",
        ]
        for module in ["PadSamples", "PadEvaluation", "PadReport", "PadRuns"] {
            let reached = Self.reachable(from: module, declared)
            #expect(reached.contains("PadVocabulary"), "\(module)")
            #expect(reached.isDisjoint(with: codecs), "\(module) reaches \(reached.intersection(codecs).sorted())")
            #expect(try Self.imports(of: module).isDisjoint(with: codecs), "\(module)")
        }
        #expect(!Self.reachable(from: "PadReport", declared).contains("PadRuns"))
        #expect(try !Self.imports(of: "PadReport").contains("PadRuns"))
    }
}
