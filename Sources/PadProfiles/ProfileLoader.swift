import Foundation
import PadVocabulary
import Yams
import PadText

/// Parses profile YAML and validates it against the outputs a run declares.
///
/// Example: `PadProfilesDocExamples.resolveThenValidate`
/// in `Tests/PadProfilesTests/DocExamplesTests.swift` (compiled and run by `swift test`).
/// A loader without a catalogue parses (keys, ops, thresholds, calibration) but accepts any output
/// name, so profiles can be read before the run knows its outputs (an external program answers
/// `describe` only once started; an import's outputs are known once its files are read). A loader
/// with a catalogue also checks every output name and threshold range against it. Every error
/// names file, line and column; an unknown output name comes with the nearest known one ("did you
/// mean `quality.sharpness`?").
package struct ProfileLoader: Sendable {
    /// Outputs profiles may use, by full name; nil: parse only.
    package let catalogue: [String: OutputDescriptor]?
    /// Whether a name outside the catalogue is accepted when its prefix is none of the
    /// catalogue's and it is no near miss of a catalogue name (`mymodel.score`: only a run can
    /// say; `qualty.luminance_mean`: a typo). `profiles validate` checks a file on its own so.
    package let acceptsOtherPrefixes: Bool

    package init(catalogue: [String: OutputDescriptor]?, acceptsOtherPrefixes: Bool = false) {
        self.catalogue = catalogue
        self.acceptsOtherPrefixes = acceptsOtherPrefixes
    }

    /// A parse-only loader (no output names or ranges are checked).
    package init() {
        self.catalogue = nil
        self.acceptsOtherPrefixes = false
    }

    /// The profile parsed again from its YAML with this loader's catalogue: every output name and
    /// threshold range checked, errors located in the profile's file (`origin`). A profile built in
    /// code without YAML is checked by name, located at its gates' lines.
    package func validate(_ profile: Profile) throws(ProfileError) -> Profile {
        guard let catalogue else { return profile }
        if !profile.yaml.isEmpty {
            var checked = try load(yaml: profile.yaml, file: profile.origin)
            checked.origin = profile.origin
            return checked
        }
        let references =
            profile.gates.filter { !$0.isSkipped }.flatMap { gate in
                [(gate.output, gate.line)] + (gate.approximation.map { [($0.output, gate.line)] } ?? [])
            } + (profile.score.map { [($0, 0)] } ?? []) + (profile.fusion?.outputs.map { ($0, 0) } ?? [])
        for (name, line) in references
        where name != profile.fusion?.name && catalogue[name] == nil
            && !(acceptsOtherPrefixes && Self.isRunOutput(name, catalogue: catalogue))
        {
            throw ProfileError(file: profile.origin, line: line, column: 0, Self.unknownOutputMessage(name, catalogue))
        }
        return profile
    }

    static func unknownOutputMessage(_ name: String, _ catalogue: [String: OutputDescriptor]) -> String {
        let hint = Suggestion.nearest(to: name, in: Array(catalogue.keys)).map { "; did you mean `\($0)`?" } ?? ""
        return "unknown output `\(TextBytes.quote(name))`\(hint)"
    }

    static let topKeys: Set<String> = ["name", "description", "source", "score", "gates", "options", "frames"]
    static let gateKeys: Set<String> = [
        "output", "op", "value", "min", "max", "code", "message", "kind", "note", "skipped", "calibrate", "approximate",
    ]
    static let approximateKeys: Set<String> = ["output", "op", "value", "min", "max", "note"]
    static let calibrateKeys: Set<String> = ["target_apcer", "target_bpcer", "criterion", "on", "apply_to"]

    /// Largest profile file read (the built-in presets are 1 to 3 KB).
    static let maximumFileBytes = 4 << 20

    package func load(file path: String) throws(ProfileError) -> Profile {
        try diagnose(file: path).profileOrFirstError()
    }

    /// Every error of a profile file (``diagnose(yaml:file:)``); one when it cannot be read.
    package func diagnose(file path: String) -> ProfileDiagnosis {
        let bytes: [UInt8]
        do { bytes = try RegularFile.read(path, limit: Self.maximumFileBytes) } catch {
            return .init(errors: [
                ProfileError(file: path, line: 0, column: 0, "cannot read the profile file: \(error.message)")
            ])
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .init(errors: [ProfileError(file: path, line: 0, column: 0, "the profile file is not UTF-8 text")])
        }
        return diagnose(yaml: text, file: path)
    }

    /// Names of the built-in presets.
    package static var builtInNames: [String] {
        guard let folder = Bundle.module.url(forResource: "Presets", withExtension: nil),
            let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    }

    package func builtIn(_ name: String) throws(ProfileError) -> Profile {
        guard let url = Bundle.module.url(forResource: name, withExtension: "yaml", subdirectory: "Presets") else {
            // Without a free descriptor the bundle cannot even be listed: say so, not "no such preset".
            if RegularFile.descriptorsExhausted() {
                throw ProfileError(
                    file: "builtin:\(name)", line: 0, column: 0,
                    "cannot read the built-in presets: \(RegularFile.errorText(EMFILE))")
            }
            let suggestion =
                Suggestion.nearest(to: name, in: Self.builtInNames).map { " (did you mean '\($0)'?)" } ?? ""
            throw ProfileError(
                file: "builtin:\(name)", line: 0, column: 0,
                "no built-in profile named '\(TextBytes.quote(name))'\(suggestion); known: \(Self.builtInNames.joined(separator: ", "))"
            )
        }
        var profile = try load(file: url.path)
        profile.origin = "builtin:\(name)"
        return profile
    }

    /// A preset name, or a path to a YAML file (anything containing `/` or ending in .yaml/.yml).
    package func resolve(_ reference: String) throws(ProfileError) -> Profile {
        if reference.contains("/") || reference.hasSuffix(".yaml") || reference.hasSuffix(".yml") {
            return try load(file: reference)
        }
        return try builtIn(reference)
    }

    /// Several profiles; duplicate names are an error.
    package func resolveAll(_ references: [String]) throws(ProfileError) -> [Profile] {
        var profiles: [Profile] = []
        for reference in references {
            let profile = try resolve(reference)
            if let other = profiles.first(where: { $0.name == profile.name }) {
                throw ProfileError(
                    file: profile.origin, line: 1, column: 1,
                    "duplicate profile name '\(profile.name)' (also in \(other.origin))")
            }
            profiles.append(profile)
        }
        return profiles
    }

    /// The profile, or the first error in document order (``ProfileError/moreErrors`` counts the
    /// rest; ``diagnose(yaml:file:)`` lists them).
    package func load(yaml text: String, file: String) throws(ProfileError) -> Profile {
        try diagnose(yaml: text, file: file).profileOrFirstError()
    }

    /// Every error in the profile, in document order: each key, gate and section is checked even
    /// after an earlier one failed (within one gate, its unknown keys and its first other error;
    /// an approximation is checked on its own). The profile only when there is no error.
    package func diagnose(yaml text: String, file: String) -> ProfileDiagnosis {
        var findings = Findings()
        let profile = parse(yaml: text, file: file, into: &findings)
        // Document order; a stable sort so two errors at one place keep the order they were found.
        let errors = findings.errors.enumerated().sorted {
            ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset)
        }.map(\.element)
        return errors.isEmpty ? ProfileDiagnosis(profile: profile, errors: []) : ProfileDiagnosis(errors: errors)
    }

    /// The errors found so far, and ``attempt(_:)`` to go on after one.
    struct Findings {
        var errors: [ProfileError] = []
        mutating func attempt<T>(_ body: () throws(ProfileError) -> T) -> T? {
            do { return try body() } catch {
                errors.append(error)
                return nil
            }
        }
    }

    private func parse(yaml text: String, file: String, into findings: inout Findings) -> Profile? {
        var context = Context(file: file)
        guard let root = findings.attempt({ () throws(ProfileError) -> Node in try Self.compose(text, file: file) })
        else { return nil }
        guard let mapping = root.mapping else {
            findings.errors.append(
                context.error(root, "a profile is a mapping (name, description, source, score, gates)"))
            return nil
        }
        findings.errors += context.unknownKeys(mapping, allowed: Self.topKeys, what: "profile")
        let name = findings.attempt { () throws(ProfileError) in try parseName(mapping, root: root, context: context) }
        let description = findings.attempt { () throws(ProfileError) in
            try context.string(mapping, "description", required: false)
        }
        let source = findings.attempt { () throws(ProfileError) in
            try context.string(mapping, "source", required: true)
        }
        var score: String?, fusion: FusedScore?
        if let scoreNode = mapping["score"] {
            if scoreNode.mapping != nil {
                fusion = findings.attempt { () throws(ProfileError) in try parseFusion(scoreNode, context: context) }
                score = fusion?.name
                // The gates may name the fused score; a broken `score:` must not add an error per gate.
                context.fusedName = fusion?.name ?? Self.fusedNameWritten(scoreNode)
            } else {
                score = findings.attempt { () throws(ProfileError) -> String in
                    guard let text = scoreNode.string else {
                        throw context.error(
                            scoreNode, "score must be an output name or a fusion (name, fusion, outputs)")
                    }
                    try checkOutput(text, node: scoreNode, context: context)
                    return text
                }
            }
        }
        let useDatasetBox = findings.attempt { () throws(ProfileError) in try parseOptions(mapping, context: context) }
        let gates = parseGates(mapping, root: root, context: context, into: &findings)
        var frames: (rule: FramesRule, outputs: [String: FrameAggregate])?
        if let framesNode = mapping["frames"] {
            frames = findings.attempt { () throws(ProfileError) in try parseFrames(framesNode, context: context) }
        }
        guard findings.errors.isEmpty, let name, let description, let source, let useDatasetBox, let gates else {
            return nil
        }
        var profile = Profile(
            name: name, description: description, source: source, score: score, gates: gates,
            useDatasetFaceBox: useDatasetBox, yaml: text, origin: file)
        profile.fusion = fusion
        profile.frames = frames?.rule
        profile.frameOutputs = frames?.outputs ?? [:]
        return profile
    }

    /// The YAML node tree; a syntax error located at its line.
    private static func compose(_ text: String, file: String) throws(ProfileError) -> Node {
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw ProfileError(file: file, line: 1, column: 1, "empty profile")
            }
            return node
        } catch let error as ProfileError {
            throw error
        } catch let error as YamlError {
            throw ProfileError(file: file, line: Self.line(of: error), column: 0, "YAML syntax: \(Self.message(error))")
        } catch {
            throw ProfileError(file: file, line: 0, column: 0, "YAML syntax: \(TextBytes.quote("\(error)"))")
        }
    }

    private func parseName(_ mapping: Node.Mapping, root: Node, context: Context) throws(ProfileError) -> String {
        let name = try context.string(mapping, "name", required: true)
        guard name.range(of: "^[A-Za-z0-9][A-Za-z0-9._-]*$", options: .regularExpression) != nil else {
            throw context.error(
                mapping["name"] ?? root,
                "profile name '\(TextBytes.quote(name))' must be letters, digits, '.', '_' or '-'")
        }
        return name
    }

    /// `options: {face: {use_dataset_box: bool}}`: whether to use the dataset's face boxes.
    private func parseOptions(_ mapping: Node.Mapping, context: Context) throws(ProfileError) -> Bool {
        guard let options = mapping["options"] else { return false }
        guard let optionMap = options.mapping else { throw context.error(options, "options must be a mapping") }
        try context.checkKeys(optionMap, allowed: ["face"], what: "options")
        guard let face = optionMap["face"] else { return false }
        guard let faceMap = face.mapping else { throw context.error(face, "options.face must be a mapping") }
        try context.checkKeys(faceMap, allowed: ["use_dataset_box"], what: "options.face")
        guard let flag = faceMap["use_dataset_box"] else { return false }
        guard let value = flag.bool else { throw context.error(flag, "use_dataset_box must be true or false") }
        return value
    }

    /// Every gate, each checked whatever its neighbours hold. A profile decides with at least one
    /// gate that is not skipped: with none every sample would be accepted (APCER 100% by
    /// construction), which no SDK configuration means.
    private func parseGates(_ mapping: Node.Mapping, root: Node, context: Context, into findings: inout Findings)
        -> [Gate]?
    {
        guard let gatesNode = mapping["gates"] else {
            findings.errors.append(
                context.error(root, "missing `gates` (a list of at least one gate: output, op, value or calibrate)"))
            return nil
        }
        guard let gateList = gatesNode.sequence else {
            findings.errors.append(context.error(gatesNode, "`gates` must be a list"))
            return nil
        }
        guard !gateList.isEmpty else {
            findings.errors.append(
                context.error(
                    gatesNode,
                    "`gates` is empty: a profile decides with at least one gate "
                        + "(with none every sample is accepted); gate the swept score, e.g. calibrate: {criterion: eer}"
                ))
            return nil
        }
        var gates: [Gate] = []
        var complete = true
        for gateNode in gateList {
            if let gate = parseGate(gateNode, context: context, into: &findings) {
                gates.append(gate)
            } else {
                complete = false
            }
        }
        guard complete else { return nil }
        if gates.allSatisfy(\.isSkipped) {
            findings.errors.append(
                context.error(
                    gatesNode,
                    "every gate is skipped: the profile decides nothing (every sample is accepted); "
                        + "add a gate padbench can decide"))
            return nil
        }
        return gates
    }

    static let fusionKeys: Set<String> = ["name", "fusion", "outputs", "on"]

    /// `score: {name: fused.x, fusion: mean | logistic, outputs: [a, b, ...], on: dev}`: a fused
    /// swept score (``FusedScore``). Its name is under `fused.`; at least two outputs, each a
    /// measured output (checked against the catalogue like a gate's), none repeated.
    private func parseFusion(_ node: Node, context: Context) throws(ProfileError) -> FusedScore {
        let map = node.mapping!
        try context.checkKeys(map, allowed: Self.fusionKeys, what: "score")
        let name = try context.string(map, "name", required: true)
        let nameNode = map["name"]!
        let plain = name.dropFirst(FusedScore.prefix.count)
        guard name.hasPrefix(FusedScore.prefix), OutputDescriptor.nameProblem(String(plain)) == nil else {
            throw context.error(
                nameNode,
                "a fused score's name is `fused.` and letters, digits, '_' or '-' (fused.liveness), not "
                    + "'\(TextBytes.quote(name))'")
        }
        let methodText = try context.string(map, "fusion", required: true)
        guard let method = FusionMethod(rawValue: methodText) else {
            throw context.error(
                map["fusion"]!, "`fusion` must be mean or logistic, not '\(TextBytes.quote(methodText))'")
        }
        guard let outputsNode = map["outputs"] else {
            throw context.error(node, "missing `outputs` (the outputs to fuse, at least two)")
        }
        guard let list = outputsNode.sequence, list.count >= 2 else {
            throw context.error(outputsNode, "`outputs` must be a list of at least two outputs to fuse")
        }
        var outputs: [String] = []
        for item in list {
            guard let output = item.string else {
                throw context.error(item, "each fused output must be an output name")
            }
            guard !output.hasPrefix(FusedScore.prefix) else {
                throw context.error(
                    item, "a fused score cannot fuse another fused score (`\(TextBytes.quote(output))`)")
            }
            guard !outputs.contains(output) else {
                throw context.error(item, "`\(TextBytes.quote(output))` is fused twice")
            }
            try checkOutput(output, node: item, context: context)
            outputs.append(output)
        }
        return FusedScore(
            name: name, method: method, outputs: outputs, trainingSplit: try context.split(map, "on") ?? .dev)
    }

    /// The `name:` a broken fusion mapping gives, when it is a `fused.` name.
    static func fusedNameWritten(_ node: Node) -> String? {
        guard let name = node.mapping?["name"]?.string, name.hasPrefix(FusedScore.prefix) else { return nil }
        return name
    }

    /// `frames: {decide: aggregate | best_shot | k_of_n, k:, n:, outputs: {OUTPUT: mean|median|min|max}}`
    /// (``FramesRule``; `outputs` only under `aggregate`).
    private func parseFrames(_ node: Node, context: Context) throws(ProfileError) -> (
        rule: FramesRule, outputs: [String: FrameAggregate]
    ) {
        guard let map = node.mapping else {
            throw context.error(node, "frames must be a mapping (decide: aggregate, best_shot or k_of_n)")
        }
        try context.checkKeys(map, allowed: ["decide", "k", "n", "outputs"], what: "frames")
        var outputs: [String: FrameAggregate] = [:]
        if let outputsNode = map["outputs"] {
            guard let pairs = outputsNode.mapping else {
                throw context.error(outputsNode, "frames.outputs must map output names to mean, median, min or max")
            }
            for (keyNode, valueNode) in pairs {
                guard let output = keyNode.string else {
                    throw context.error(keyNode, "frames.outputs: a key must be an output name")
                }
                try checkOutput(output, node: keyNode, context: context)
                guard let text = valueNode.string, let rule = FrameAggregate(rawValue: text) else {
                    throw context.error(
                        valueNode,
                        "frames.outputs.\(output) must be mean, median, min or max, not '\(valueNode.string ?? "")'")
                }
                outputs[output] = rule
            }
        }
        let rule = try parseFramesRule(map, node: node, context: context)
        guard outputs.isEmpty || rule == .aggregate else {
            throw context.error(
                map["outputs"]!,
                "frames.outputs belongs to decide: aggregate (\(rule.text) decides on one frame's values)")
        }
        return (rule, outputs)
    }

    private func parseFramesRule(_ map: Node.Mapping, node: Node, context: Context) throws(ProfileError) -> FramesRule {
        let decide = try context.string(map, "decide", required: true)
        func count(_ key: String) throws(ProfileError) -> Int? {
            guard let valueNode = map[key] else { return nil }
            guard let text = valueNode.string, let value = Int(text), value >= 1 else {
                throw context.error(valueNode, "frames.\(key) must be a whole number of frames, at least 1")
            }
            return value
        }
        let k = try count("k"), n = try count("n")
        switch decide {
        case "aggregate", "best_shot":
            if k != nil || n != nil { throw context.error(node, "k and n belong to decide: k_of_n") }
            return decide == "aggregate" ? .aggregate : .bestShot
        case "k_of_n":
            guard let k, let n else { throw context.error(node, "decide: k_of_n needs k and n") }
            guard k <= n else { throw context.error(map["k"]!, "frames.k (\(k)) must not exceed frames.n (\(n))") }
            return .atLeast(k: k, of: n)
        default:
            throw context.error(
                map["decide"]!, "unknown frames.decide '\(decide)' (expected aggregate, best_shot or k_of_n)")
        }
    }

    /// One gate, its errors added to `findings`: its unknown keys, then the first other error of
    /// the gate itself, and (checked on its own) of its approximation.
    private func parseGate(_ node: Node, context: Context, into findings: inout Findings) -> Gate? {
        guard let map = node.mapping else {
            findings.errors.append(context.error(node, "a gate is a mapping (output, op, value, code, message)"))
            return nil
        }
        let unknown = context.unknownKeys(map, allowed: Self.gateKeys, what: "gate")
        findings.errors += unknown
        // An unknown output is reported beside the gate's other errors (op, thresholds), not
        // instead of them: `profiles validate` lists every error of a file.
        var outputKnown = true
        if map["skipped"] == nil, let outputNode = map["output"], let output = outputNode.string {
            outputKnown =
                findings.attempt { () throws(ProfileError) in
                    try checkOutput(output, node: outputNode, context: context)
                } != nil
        }
        let parsed = findings.attempt { () throws(ProfileError) in
            try parseGate(node, map, context: context, outputChecked: true)
        }
        let gate = outputKnown ? parsed : nil
        // A skipped gate decides nothing and a calibrated one refuses `approximate:` itself.
        guard map["skipped"] == nil, map["calibrate"] == nil, map["approximate"] != nil else {
            return unknown.isEmpty ? gate : nil
        }
        let approximation = findings.attempt { () throws(ProfileError) in
            try parseApproximation(map, context: context)
        }
        guard unknown.isEmpty, var gate, let approximation else { return nil }
        gate.approximation = approximation
        return gate
    }

    /// One gate without its approximation: a skipped gate (a reason, no threshold), a calibrated
    /// gate, or a comparison with its thresholds. Errors are located at the offending node.
    private func parseGate(
        _ node: Node, _ map: Node.Mapping, context: Context, allowApproximate: Bool = false,
        outputChecked: Bool = false
    ) throws(ProfileError) -> Gate {
        let line = node.mark?.line ?? 0
        let output = try context.string(map, "output", required: true)
        let code = try context.string(map, "code", required: false)
        let message = try context.string(map, "message", required: false)
        let note = try context.string(map, "note", required: false)
        if let skippedNode = map["skipped"] {
            guard let reason = skippedNode.string, !reason.isEmpty else {
                throw context.error(skippedNode, "skipped takes the reason the gate cannot be evaluated")
            }
            // A skipped gate documents a vendor check padbench cannot measure: its output need not exist.
            return Gate(
                output: output, comparison: .ge, threshold: .nan, code: code, message: message,
                kind: .exact, note: note, skipped: reason, line: line)
        }
        if !outputChecked { try checkOutput(output, node: map["output"]!, context: context) }
        if let calibrateNode = map["calibrate"] {
            let calibration = try parseCalibration(
                calibrateNode, gate: map, context: context, allowApproximate: allowApproximate)
            if !allowApproximate, let approximate = map["approximate"] {
                throw context.error(approximate, "a calibrated gate takes no approximation")
            }
            // `op: le` marks a lower-is-bona-fide output: calibrated on it negated, accepted when <= t.
            let lower = map["op"]?.string == "le"
            return Gate(
                output: output, comparison: lower ? .le : .ge, threshold: .nan, code: code, message: message,
                kind: .calibrated, note: note, calibration: calibration, line: line)
        }
        let (comparison, kind) = try parseComparison(node, map, output: output, context: context)
        let (threshold, upper) = try parseThresholds(node, map, comparison: comparison, context: context)
        try checkRange(
            map, output: output, comparison: comparison, threshold: threshold, upper: upper, context: context)
        return Gate(
            output: output, comparison: comparison, threshold: threshold, upper: upper, code: code,
            message: message, kind: kind, note: note, line: line)
    }

    /// `calibrate: {target_apcer | target_bpcer | criterion, on, apply_to}`: exactly one target;
    /// the threshold is chosen on `on` (default dev) and applied on eval. A calibrated gate takes
    /// no value, and no op but `ge` (the default) or `le` (a lower-is-bona-fide output); an
    /// approximation cannot be calibrated.
    private func parseCalibration(
        _ calibrateNode: Node, gate map: Node.Mapping, context: Context,
        allowApproximate: Bool
    ) throws(ProfileError) -> Gate.Calibration {
        guard let cal = calibrateNode.mapping else { throw context.error(calibrateNode, "calibrate must be a mapping") }
        try context.checkKeys(cal, allowed: Self.calibrateKeys, what: "calibrate")
        let target = try parseCalibrationTarget(cal, node: calibrateNode, context: context)
        let on = try context.split(cal, "on") ?? .dev
        // Results are reported on `eval` (all samples when the data has no eval split), so the
        // calibrated threshold is applied there; any other `apply_to` would be silently ignored.
        if let node = cal["apply_to"], try context.split(cal, "apply_to") != .eval {
            throw context.error(
                node,
                "`apply_to` can only be eval: padbench reports every profile on eval "
                    + "(or on all samples when the data has no eval split)"
            )
        }
        if allowApproximate { throw context.error(calibrateNode, "an approximation cannot be calibrated") }
        if map["value"] != nil || (map["op"] != nil && !["ge", "le"].contains(map["op"]?.string ?? "")) {
            throw context.error(
                calibrateNode,
                "a calibrated gate takes no value and no op but ge or le: its threshold is chosen "
                    + "(accept when output >= t, or <= t with op: le)")
        }
        return .init(target: target, calibrationSplit: on, appliedSplit: .eval)
    }

    private func parseCalibrationTarget(
        _ cal: Node.Mapping, node calibrateNode: Node,
        context: Context
    ) throws(ProfileError) -> Gate.Calibration.Target {
        let apcer = try context.fraction(cal, "target_apcer"), bpcer = try context.fraction(cal, "target_bpcer")
        var criterion: Gate.Calibration.Target?
        if let node = cal["criterion"] {
            switch node.string?.lowercased() {
            case "eer": criterion = .eer
            case "min-hter": criterion = .minHTER
            default:
                throw context.error(node, "`criterion` must be eer or min-hter (or give target_apcer / target_bpcer)")
            }
        }
        switch (apcer, bpcer, criterion) {
        case (let x?, nil, nil): return .apcer(x)
        case (nil, let x?, nil): return .bpcer(x)
        case (nil, nil, let c?): return c
        default:
            throw context.error(calibrateNode, "calibrate needs exactly one of target_apcer, target_bpcer or criterion")
        }
    }

    /// `op` (required) and `kind` (exact, approximation or own; default exact).
    private func parseComparison(
        _ node: Node, _ map: Node.Mapping, output: String,
        context: Context
    ) throws(ProfileError) -> (Gate.Comparison, Gate.Kind) {
        guard let opNode = map["op"], let opText = opNode.string else {
            throw context.error(node, "gate on \(output) needs op (ge, gt, le, lt, eq, between)")
        }
        guard let comparison = Gate.Comparison(rawValue: opText) else {
            throw context.error(opNode, "unknown op '\(TextBytes.quote(opText))' (ge, gt, le, lt, eq, between)")
        }
        guard let kindNode = map["kind"] else { return (comparison, .exact) }
        guard let text = kindNode.string, let kind = Gate.Kind(rawValue: text), kind != .calibrated else {
            throw context.error(
                kindNode,
                "kind must be exact, approximation or own (padbench's own threshold where the vendor gives none)")
        }
        return (comparison, kind)
    }

    /// `min` and `max` for `between` (min <= max), otherwise `value` (upper is NaN).
    private func parseThresholds(
        _ node: Node, _ map: Node.Mapping, comparison: Gate.Comparison,
        context: Context
    ) throws(ProfileError) -> (threshold: Double, upper: Double) {
        if comparison == .between {
            guard map["value"] == nil else {
                throw context.error(map["value"]!, "between takes min and max, not value")
            }
            let threshold = try context.number(map, "min", in: node)
            let upper = try context.number(map, "max", in: node)
            guard threshold <= upper else {
                throw context.error(map["min"]!, "inverted range: min \(threshold) is above max \(upper)")
            }
            return (threshold, upper)
        }
        guard map["min"] == nil, map["max"] == nil else {
            throw context.error(map["min"] ?? map["max"]!, "min/max belong to op between; use value")
        }
        return (try context.number(map, "value", in: node), .nan)
    }

    /// With a catalogue, thresholds must lie within the output's declared range.
    private func checkRange(
        _ map: Node.Mapping, output: String, comparison: Gate.Comparison, threshold: Double, upper: Double,
        context: Context
    ) throws(ProfileError) {
        guard let descriptor = catalogue?[output] else { return }
        for (value, key) in [(threshold, comparison == .between ? "min" : "value"), (upper, "max")] where !value.isNaN {
            if value < descriptor.minimum || value > descriptor.maximum {
                throw context.error(
                    map[key]!,
                    "threshold \(value) is outside the range of \(output) "
                        + "[\(descriptor.minimum), \(descriptor.maximum)]"
                )
            }
        }
    }

    /// `approximate:` a gate on another output used when the run lacks this gate's output.
    private func parseApproximation(_ map: Node.Mapping, context: Context) throws(ProfileError) -> Gate.ApproximateGate
    {
        let approximateNode = map["approximate"]!
        guard let approximate = approximateNode.mapping else {
            throw context.error(approximateNode, "approximate must be a mapping")
        }
        try context.checkKeys(approximate, allowed: Self.approximateKeys, what: "approximate")
        let inner = try parseGate(approximateNode, approximate, context: context, allowApproximate: true)
        return .init(
            output: inner.output, comparison: inner.comparison, threshold: inner.threshold, upper: inner.upper,
            note: inner.note)
    }

    private func checkOutput(_ name: String, node: Node, context: Context) throws(ProfileError) {
        if name.hasPrefix(FusedScore.prefix) {
            guard name == context.fusedName else {
                throw context.error(
                    node,
                    "`\(TextBytes.quote(name))` is no fused score of this profile: `fused.` names the score a "
                        + "profile's `score: {name:, fusion:, outputs:}` defines"
                        + (context.fusedName.map { " (this profile's is `\($0)`)" } ?? ""))
            }
            return
        }
        guard let catalogue, catalogue[name] == nil else { return }
        if acceptsOtherPrefixes && Self.isRunOutput(name, catalogue: catalogue) { return }
        throw context.error(node, Self.unknownOutputMessage(name, catalogue))
    }

    /// A name only a run can declare: under a prefix no catalogue output has (`mymodel.score`),
    /// and no near miss of a catalogue name (`qualty.luminance_mean` is the typo bench refuses).
    static func isRunOutput(_ name: String, catalogue: [String: OutputDescriptor]) -> Bool {
        guard let prefix = name.split(separator: ".").first.map(String.init) else { return false }
        let known = Array(catalogue.keys)
        return !known.contains { $0.hasPrefix(prefix + ".") } && Suggestion.nearest(to: name, in: known) == nil
    }

    static func line(of error: YamlError) -> Int {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
            return mark.line
        case .duplicatedKeysInMapping(_, let context):
            return context.mark.line
        default:
            return 0
        }
    }

    /// What went wrong, in one line of at most about 200 characters: Yams' own description
    /// quotes the document (a duplicate key printed the whole mapping, a 50 MB key 100 MB).
    static func message(_ error: YamlError) -> String {
        switch error {
        case .scanner(let context, let problem, _, _), .parser(let context, let problem, _, _),
            .composer(let context, let problem, _, _):
            return TextBytes.quote((context.map { $0.text + " " } ?? "") + problem)
        case .reader(let problem, _, _, _):
            return TextBytes.quote(problem)
        case .duplicatedKeysInMapping(let duplicates, _):
            let keys = duplicates.sorted().map { "'\(TextBytes.quote($0, limit: 60))'" }.joined(separator: ", ")
            return TextBytes.quote("duplicate key " + keys)
        default:
            return TextBytes.quote("\(error)")
        }
    }

    /// Typed accessors that turn Yams nodes into values or located errors.
    struct Context {
        let file: String
        /// The name of the profile's fused score, once `score:` is read: the one `fused.` name
        /// its gates may use.
        var fusedName: String?

        func error(_ node: Node, _ message: String) -> ProfileError {
            ProfileError(file: file, line: node.mark?.line ?? 0, column: node.mark?.column ?? 0, message)
        }

        func checkKeys(_ map: Node.Mapping, allowed: Set<String>, what: String) throws(ProfileError) {
            if let first = unknownKeys(map, allowed: allowed, what: what).first { throw first }
        }

        /// An error per key of `map` that is not text or not in `allowed`.
        func unknownKeys(_ map: Node.Mapping, allowed: Set<String>, what: String) -> [ProfileError] {
            map.compactMap { (key, _) -> ProfileError? in
                guard let name = key.string else { return error(key, "\(what) keys must be text") }
                guard !allowed.contains(name) else { return nil }
                let hint = Suggestion.nearest(to: name, in: Array(allowed)).map { "; did you mean `\($0)`?" } ?? ""
                return error(key, "unknown \(what) key `\(TextBytes.quote(name))`\(hint)")
            }
        }

        func string(_ map: Node.Mapping, _ key: String, required: Bool) throws(ProfileError) -> String {
            guard let node = map[key] else {
                if required {
                    throw ProfileError(
                        file: file, line: map.mark?.line ?? 0, column: map.mark?.column ?? 0, "missing `\(key)`")
                }
                return ""
            }
            guard let value = node.string else { throw error(node, "`\(key)` must be text") }
            return value
        }

        func number(_ map: Node.Mapping, _ key: String, in gate: Node) throws(ProfileError) -> Double {
            guard let node = map[key] else { throw error(gate, "missing `\(key)`") }
            guard let value = node.float, value.isFinite else { throw error(node, "`\(key)` must be a number") }
            return value
        }

        func fraction(_ map: Node.Mapping, _ key: String) throws(ProfileError) -> Double? {
            guard let node = map[key] else { return nil }
            guard let value = node.float, value >= 0, value <= 1 else {
                throw error(node, "`\(key)` must be a fraction in [0, 1] (0.03, not 3)")
            }
            return value
        }

        func split(_ map: Node.Mapping, _ key: String) throws(ProfileError) -> Split? {
            guard let node = map[key] else { return nil }
            guard let text = node.string, let split = Split(parsing: text), split != .none else {
                throw error(node, "`\(key)` must be train, dev or eval")
            }
            return split
        }
    }
}
