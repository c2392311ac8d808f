import Foundation
import PadImage
import PadText
import PadVocabulary
import PadSamples

/// CelebA-Spoof (Zhang et al., ECCV 2020): `Data/{train,test}/<subject>/{live,spoof}/<n>.jpg|png`,
/// a face box file `<n>_BB.txt` beside each image (`x y w h score` in a 224x224 frame of reference,
/// scaled here by image width / 224 and height / 224), and label files
/// `metas/intra_test/{train,test}_label.json` mapping each image path to 44 integers: index 40 is
/// the spoof type, index 43 live (0) / spoof (1). `test` is reported as `eval`.
enum CelebASpoofLayout {
    /// Spoof-type index 40 -> PAI species.
    static let species = [
        1: "photo", 2: "poster", 3: "a4", 4: "face_mask", 5: "upper_body_mask", 6: "region_mask",
        7: "pc_screen", 8: "pad_screen", 9: "phone_screen", 10: "3d_mask",
    ]

    /// The 40 CelebA face attributes, label indices 0...39, in CelebA's `list_attr_celeba.txt`
    /// order (Liu et al., ICCV 2015), as `attr.<lower snake case>` columns (1 = present).
    static let celebAAttributes = [
        "5_o_clock_shadow", "arched_eyebrows", "attractive", "bags_under_eyes", "bald", "bangs", "big_lips",
        "big_nose", "black_hair", "blond_hair", "blurry", "brown_hair", "bushy_eyebrows", "chubby", "double_chin",
        "eyeglasses", "goatee", "gray_hair", "heavy_makeup", "high_cheekbones", "male", "mouth_slightly_open",
        "mustache", "narrow_eyes", "no_beard", "oval_face", "pale_skin", "pointy_nose", "receding_hairline",
        "rosy_cheeks", "sideburns", "smiling", "straight_hair", "wavy_hair", "wearing_earrings", "wearing_hat",
        "wearing_lipstick", "wearing_necklace", "wearing_necktie", "young",
    ]
    /// Index 41, illumination (CelebA-Spoof: 0 normal, 1 strong, 2 back, 3 dark), and index 42,
    /// environment (0 indoor, 1 outdoor), as categories.
    static let illumination = [0: "normal", 1: "strong", 2: "back", 3: "dark"]
    static let environment = [0: "indoor", 1: "outdoor"]
    /// The label columns: the 40 attributes, illumination and environment, then the demographic
    /// groups CelebA's labels allow (sex from `male`, age from `young`, skin from `pale_skin`).
    static let labelNames =
        celebAAttributes.map { SampleLabels.attributePrefix + $0 } + ["attr.illumination", "attr.environment"]
        + ["group.sex", "group.age", "group.skin"]

    /// One entry's label values (``labelNames`` order); "" for a value that is not an integer.
    static func labelValues(_ values: [Any]) -> [String] {
        let numbers = values.map { $0 as? Int }
        func flag(_ i: Int) -> String { numbers[i].map(String.init) ?? "" }
        func category(_ i: Int, _ names: [Int: String]) -> String { numbers[i].map { names[$0] ?? String($0) } ?? "" }
        func group(_ i: Int, _ yes: String, _ no: String) -> String { numbers[i].map { $0 == 1 ? yes : no } ?? "" }
        return (0..<40).map(flag) + [category(41, illumination), category(42, environment)]
            + [group(20, "male", "female"), group(39, "young", "not_young"), group(26, "pale", "not_pale")]
    }

    static func load(root: String) -> LoadedDataset {
        var samples: [Sample] = []
        var labelColumns = SampleLabels(names: labelNames)
        var problems: [DatasetProblem] = []
        for (file, split) in [("train_label.json", Split.train), ("test_label.json", Split.eval)] {
            let path = root + "/metas/intra_test/" + file
            guard let data = try? Data(RegularFile.read(path)) else { continue }
            guard let labels = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
                problems.append(DatasetProblem(.badLine, file: path, "not a JSON object of path -> 44 labels"))
                continue
            }
            let lineOf = keyLines(String(decoding: data, as: UTF8.self))
            for key in labels.keys.sorted() {
                do throws(DatasetProblem) {
                    samples.append(
                        try sample(
                            key, labels: labels[key], split: split, root: root, labelFile: path, line: lineOf[key] ?? 0)
                    )
                    labelColumns.append(id: key, values: labelValues(labels[key] as! [Any]))
                } catch {
                    problems.append(error)
                }
            }
        }
        if samples.isEmpty && problems.isEmpty {
            problems.append(
                DatasetProblem(.badLayout, file: root, "no metas/intra_test/{train,test}_label.json label files"))
        }
        var loaded = LoadedDataset(root: root, layout: .celebASpoof, samples: samples, problems: problems)
        loaded.labels = labelColumns
        return loaded
    }

    /// Line of each key, for messages (the label files list one entry per line).
    static func keyLines(_ text: String) -> [String: Int] {
        var lineOf: [String: Int] = [:]
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let start = line.firstIndex(of: "\""), let end = line[line.index(after: start)...].firstIndex(of: "\"") {
                lineOf[String(line[line.index(after: start)..<end])] = n + 1
            }
        }
        return lineOf
    }

    /// One label-file entry as a sample: 44 integer labels, the image present, a known live/spoof
    /// combination, the subject from the path (`Data/<split>/<subject>/...`) and the scaled box.
    static func sample(
        _ key: String, labels: Any?, split: Split, root: String, labelFile path: String,
        line: Int
    ) throws(DatasetProblem) -> Sample {
        guard let values = labels as? [Any], values.count == 44, let type = values[40] as? Int,
            let spoof = values[43] as? Int
        else {
            throw DatasetProblem(.badLine, file: path, line: line, "\(key): expected 44 integer labels")
        }
        let imagePath = root + "/" + key
        guard FileManager.default.fileExists(atPath: imagePath) else {
            throw DatasetProblem(
                .missingFile, file: path, line: line, "\(key): image named in the label file is missing")
        }
        let label: Label
        if spoof == 0 && type == 0 {
            label = .bonaFide
        } else if spoof == 1, let name = species[type] {
            label = .attack(species: name)
        } else {
            throw DatasetProblem(
                .unknownLabel, file: path, line: line,
                "\(key): spoof type \(type) with live/spoof flag \(spoof) is not a known combination")
        }
        let parts = key.split(separator: "/")
        let subject = parts.count >= 3 ? String(parts[2]) : ""
        return Sample(
            id: key, path: imagePath, label: label, split: split, subject: subject,
            faceBox: try faceBox(imagePath: imagePath))
    }

    /// The `<n>_BB.txt` box beside the image, scaled from the 224x224 frame to the image's stored
    /// size; nil when there is no box file.
    static func faceBox(imagePath: String) throws(DatasetProblem) -> Box? {
        let boxPath = (imagePath as NSString).deletingPathExtension + "_BB.txt"
        guard RegularFile.problem(boxPath) == nil, let boxText = try? String(contentsOfFile: boxPath, encoding: .utf8)
        else { return nil }
        let numbers = boxText.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).compactMap
        { Double($0) }
        if numbers.count < 4 {
            throw DatasetProblem(
                .badLine, file: boxPath, line: 1, "box file has \(numbers.count) numbers, expected x y w h score")
        }
        guard let size = ImageDecoder.storedSize(fileAt: imagePath) else {
            throw DatasetProblem(.undecodable, file: imagePath, "cannot read the image size to scale its face box")
        }
        let sx = Double(size.width) / 224, sy = Double(size.height) / 224
        let scaled = Box(x: numbers[0] * sx, y: numbers[1] * sy, width: numbers[2] * sx, height: numbers[3] * sy)
        if let problem = FaceBoxCheck.problem(scaled) {
            throw DatasetProblem(.badLine, file: boxPath, line: 1, problem)
        }
        return scaled
    }
}
