import ArgumentParser
import PadBench
import PadImport

/// `padbench import FORMAT`: vendor exports joined onto a dataset, scored by vendor-shaped profiles.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a vendor's exported results onto a dataset and score profiles on them.",
        discussion: """
            Formats: luna-osl (OneShotLiveness response JSON: object, \
            array or JSON lines), misnap-mibi (MibiData JSON, \
            one per image named after it), idemia-status (CSV id,status with Live/Fake/NoDecision/Unknown), \
            long-csv (id,output,value). Records join samples by id, file name or file name without extension, or a presentation (a video's path, file name or stem: its result applies to every frame).
            --comparisons FILE adds a face comparator's scores of the same presentations: the whole system's \
            rates (IAPMR, IAPAR, system FNMR) in vulnerability.csv, as eval and bench write them \
            (docs/vulnerability.md).
            """
    )

    @Argument(help: "luna-osl, misnap-mibi, idemia-status or long-csv.") var format: String
    @Option(help: "Dataset folder the results belong to.") var dataset: String
    @Option(name: .customLong("input"), parsing: .upToNextOption, help: "Export files.") var inputs: [String]
    @Option(help: "Profiles to score (built-in names or YAML files); none when empty.") var profiles: String = ""
    @Option(help: "IDEMIA NoDecision: accept, reject or fta (failure to process).") var noDecision: String = "fta"
    @Option(help: "Output folder.") var out: String
    @Flag(help: "Replace a complete run under --out (otherwise refused).") var force = false
    @Flag(help: "Refuse (exit 1, before writing) when a profile gate's output is not in the import.") var strict = false
    @Option(
        name: .customLong("attack-potential"),
        help: "CSV species,attack_potential: report APCER_AP per level (the highest APCER among its species).")
    var attackPotential: String?
    @OptionGroup var comparator: ComparatorOptions

    func validate() throws {
        if let problem = comparator.problem() { throw ValidationError(problem) }
    }

    func run() throws {
        guard let formatValue = VendorFormat(rawValue: format) else {
            throw ValidationError(
                "unknown format '\(format)' (\(VendorFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard let policy = NoDecisionPolicy(rawValue: noDecision) else {
            throw ValidationError("--no-decision must be accept, reject or fta")
        }
        let loaded = try CommandSupport.loadDataset(dataset, layout: nil)
        let profileList = profiles.isEmpty ? [] : try CommandSupport.loadProfiles(profiles)
        let levels = try CommandSupport.attackPotential(attackPotential, dataset: loaded)
        // A bad export or profile is bad data, not a wrong command line: exit 1, one line.
        let outcome = try CommandSupport.atRunTime {
            try ImportRunner().run(
                format: formatValue, noDecision: policy, dataset: loaded, inputs: inputs,
                profiles: profileList, outputFolder: out, force: force, commandLine: CommandLine.arguments,
                strict: strict, attackPotential: levels,
                comparator: comparator.comparisons.map {
                    ImportRunner.Comparator(path: $0, threshold: comparator.threshold)
                })
        }
        if !outcome.results.isEmpty { print(TerminalTables.profileTable(outcome.results)) }
        CommandSupport.printWarnings(outcome.results)
        let failed = outcome.table.failedCount
        print(
            "\nsamples \(outcome.table.count) = ok \(outcome.table.count - failed) + failed \(failed); "
                + "vendor results matched \(outcome.matched)"
        )
        print("run folder: \(outcome.folder)\narchive:    \(outcome.archivePath)")
    }
}
