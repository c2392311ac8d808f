import Foundation
import PadText
import PadVideo
import PadVocabulary
import PadSamples

/// OULU-NPU (Boulkenafet et al., FG 2017), its videos (`Train_files/`, `Dev_files/`, `Test_files/`
/// hold `Phone_Session_User_File.avi`) or frames extracted from them (`Phone_Session_User_File
/// [_anything].ext`, anywhere): File 1 is real access, 2 and 3 print attacks (two printers), 4 and
/// 5 video replay (two displays). Protocol lists `Protocols/Protocol_<p>/{Train,Dev,Test}[_<fold>].txt`
/// hold lines `+1,1_1_01_1` (label, video name); videos and frames of videos a list names get its
/// split, others are left out. Without protocol lists a video gets the split of its folder
/// (`Train_files` train, `Dev_files` dev, `Test_files` eval) and a frame none. Every frame of one
/// video is one presentation: a video's frames have the video file as presentation, extracted
/// frames the video name (`1_1_01_1`).
enum OuluNPULayout {
    static func parse(_ name: String) -> (phone: Int, session: Int, user: String, file: Int, video: String)? {
        let stem = (name as NSString).deletingPathExtension
        let parts = stem.split(separator: "_")
        guard parts.count >= 4, let phone = Int(parts[0]), let session = Int(parts[1]), let file = Int(parts[3]),
            (1...6).contains(phone), (1...3).contains(session), (1...5).contains(file), Int(parts[2]) != nil
        else { return nil }
        return (phone, session, String(parts[2]), file, parts[0..<4].joined(separator: "_"))
    }

    static func load(root: String, protocolNumber: Int?, fold: Int?) -> LoadedDataset {
        var problems: [DatasetProblem] = []
        // Video -> split from the protocol lists.
        let splitOf = protocolNumber.map { protocolSplits(root: root, protocolNumber: $0, fold: fold, &problems) }
        let found = frames(root: root, splitOf: splitOf, &problems)
        for video in (splitOf ?? [:]).keys.sorted() where !found.videos.contains(video) {
            problems.append(
                DatasetProblem(
                    .missingFile, file: root + "/Protocols/Protocol_\(protocolNumber ?? 0)",
                    "protocol names video \(video) but no frame of it was found"))
        }
        let samples = found.samples.sorted { $0.id < $1.id }
        return LoadedDataset(root: root, layout: .ouluNPU, samples: samples, problems: problems)
    }

    /// The split of every video the protocol's Train, Dev and Test lists name.
    static func protocolSplits(root: String, protocolNumber p: Int, fold: Int?, _ problems: inout [DatasetProblem])
        -> [String: Split]
    {
        var splitOf: [String: Split] = [:]
        let folder = root + "/Protocols/Protocol_\(p)"
        for (name, split) in [("Train", Split.train), ("Dev", Split.dev), ("Test", Split.eval)] {
            let file = folder + "/" + name + (fold.map { "_\($0)" } ?? "") + ".txt"
            guard RegularFile.problem(file) == nil, let text = try? String(contentsOfFile: file, encoding: .utf8)
            else {
                problems.append(
                    DatasetProblem(
                        .missingFile, file: file, "protocol list missing (protocols 3 and 4 need --fold 1-6)"))
                continue
            }
            for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
                if line.isEmpty { continue }
                let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                guard fields.count == 2, fields[0] == "+1" || fields[0] == "-1" || fields[0] == "-2",
                    parse(fields[1]) != nil
                else {
                    problems.append(
                        DatasetProblem(
                            .badLine, file: file, line: n + 1,
                            "expected '+1,<Phone_Session_User_File>' or '-1,...', got '\(TextBytes.quote(String(line)))'"
                        ))
                    continue
                }
                splitOf[fields[1]] = split
            }
        }
        return splitOf
    }

    /// Every frame under `root` (outside `Protocols/`), labelled by its file number; with a
    /// protocol (`splitOf`), only frames of the videos it lists, with their split.
    static func frames(root: String, splitOf: [String: Split]?, _ problems: inout [DatasetProblem])
        -> (samples: [Sample], videos: Set<String>)
    {
        var samples: [Sample] = []
        var seenVideos = Set<String>()
        guard let walker = FileManager.default.enumerator(atPath: root) else { return (samples, seenVideos) }
        while let relative = walker.nextObject() as? String {
            guard DatasetLoader.mediaExtensions.contains((relative as NSString).pathExtension.lowercased()),
                !relative.hasPrefix("Protocols/")
            else { continue }
            guard let parsed = parse((relative as NSString).lastPathComponent) else {
                problems.append(
                    DatasetProblem(
                        .unknownLabel, file: relative, "name is not Phone_Session_User_File[_frame] (OULU-NPU)"))
                continue
            }
            let isVideo = VideoFiles.isVideo(relative)
            var split = isVideo ? folderSplit(relative) : Split.none
            if let splitOf {
                guard let listed = splitOf[parsed.video] else { continue } // not in this protocol
                split = listed
            }
            seenVideos.insert(parsed.video)
            let label: Label = parsed.file == 1 ? .bonaFide : .attack(species: parsed.file <= 3 ? "print" : "replay")
            samples.append(
                Sample(
                    id: relative, path: root + "/" + relative, label: label, split: split, subject: parsed.user,
                    presentation: isVideo ? relative : parsed.video))
        }
        return (samples, seenVideos)
    }

    /// The split OULU-NPU's folder gives a video: `Train_files/` train, `Dev_files/` dev,
    /// `Test_files/` eval, anything else none.
    static func folderSplit(_ relative: String) -> Split {
        switch relative.split(separator: "/").first {
        case "Train_files": return .train
        case "Dev_files": return .dev
        case "Test_files": return .eval
        default: return .none
        }
    }
}
