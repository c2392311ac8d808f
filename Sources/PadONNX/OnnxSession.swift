import COnnxRuntime
import PadText
import PadVocabulary

/// A float tensor: its shape (outermost first) and its values in row-major order.
package struct OnnxTensor: Sendable, Equatable {
    package var shape: [Int]
    package var values: [Float]
    package init(shape: [Int], values: [Float]) {
        self.shape = shape
        self.values = values
    }
}

/// One input or output of a model as the file declares it: name, element type and shape
/// (`-1` for a dimension the model leaves open, such as a dynamic batch).
package struct OnnxTensorInfo: Sendable, Equatable, CustomStringConvertible {
    package var name: String
    /// ONNX's element type number (1 = float32, 2 = uint8, 7 = int64, ...).
    package var elementType: Int
    package var shape: [Int]
    package var isFloat: Bool { elementType == 1 }
    package var description: String {
        let dims = shape.map { $0 < 0 ? "?" : "\($0)" }.joined(separator: "x")
        return "\(name) \(Self.typeName(elementType))[\(dims)]"
    }
    static func typeName(_ type: Int) -> String {
        switch type {
        case 1: "float32"
        case 2: "uint8"
        case 3: "int8"
        case 6: "int32"
        case 7: "int64"
        case 8: "string"
        case 9: "bool"
        case 10: "float16"
        case 11: "float64"
        default: "type \(type)"
        }
    }
}

/// One ONNX model loaded for the whole run: one `OrtSession` shared by every worker thread
/// (ONNX Runtime documents `Run` as safe to call concurrently on one session).
///
/// Example: `OnnxSessionTests.describesAndHashesTheModel` in `Tests/PadONNXTests/OnnxSessionTests.swift`.
///
/// The file is read by padbench (a regular file, at most ``maximumModelBytes``), hashed with SHA-256
/// from the same bytes, and handed to `CreateSessionFromArray`, so the digest the manifest records
/// is the digest of what ran. Every input and output must be a float32 tensor (the image networks
/// padbench runs); anything else is refused when the model is loaded, before any sample.
package final class OnnxSession: Sendable {
    /// Models larger than this are refused before they are read (the largest padbench ships is 1.7 MB).
    package static let maximumModelBytes = 1 << 30

    package let runtime: OnnxRuntime
    package let path: String
    /// SHA-256 of the model file, as `sha256sum` prints it.
    package let sha256: String
    package let byteCount: Int
    package let inputs: [OnnxTensorInfo]
    package let outputs: [OnnxTensorInfo]
    /// Intra-op threads of the session (1: `Run` computes on the calling thread).
    package let threads: Int
    // Safety: set once in init, released in deinit; `Run` is thread-safe (ONNX Runtime's threading notes).
    nonisolated(unsafe) private let session: OpaquePointer
    // Safety: the C strings are made once in init, only read by `Run`, and freed in deinit.
    /// The tensor names as C strings, made once (freed in deinit) so `Run` allocates nothing for them.
    nonisolated(unsafe) private let inputNames: [UnsafePointer<CChar>?]
    // Safety: the C strings are made once in init, only read by `Run`, and freed in deinit.
    nonisolated(unsafe) private let outputNames: [UnsafePointer<CChar>?]

    /// Loads `path` (the model's failures name the file). `threads` is the session's intra-op
    /// thread count; padbench runs many samples at once, so 1 keeps each call on its worker.
    package init(runtime: OnnxRuntime, path: String, threads: Int = 1) throws(OnnxError) {
        let bytes: [UInt8]
        do { bytes = try RegularFile.read(path, limit: Self.maximumModelBytes) } catch {
            throw OnnxError(.model, "\(MessageText.quote(path)): \(error.message)")
        }
        guard !bytes.isEmpty else { throw OnnxError(.model, "\(MessageText.quote(path)): the model file is empty") }
        self.runtime = runtime
        self.path = path
        self.byteCount = bytes.count
        self.sha256 = SHA256.hex(bytes)
        self.threads = max(1, threads)
        let api = runtime.api
        var options: OpaquePointer?
        try runtime.check(api.pointee.CreateSessionOptions(&options), .model, "\(path): cannot create session options")
        defer { api.pointee.ReleaseSessionOptions(options) }
        try runtime.check(api.pointee.SetIntraOpNumThreads(options, Int32(self.threads)), .model, path)
        try runtime.check(api.pointee.SetInterOpNumThreads(options, 1), .model, path)
        if self.threads > 1 {
            // Idle pool threads sleep instead of spinning: padbench decodes on the other cores meanwhile.
            try runtime.check(
                api.pointee.AddSessionConfigEntry(options, "session.intra_op.allow_spinning", "0"), .model, path)
        }
        var created: OpaquePointer?
        let status = bytes.withUnsafeBytes { raw in
            api.pointee.CreateSessionFromArray(runtime.environment, raw.baseAddress, raw.count, options, &created)
        }
        try runtime.check(
            status, .model, "\(MessageText.quote(path)) is not a model ONNX Runtime \(runtime.version) can load")
        guard let created else { throw OnnxError(.model, "\(path): ONNX Runtime returned no session") }
        session = created
        do {
            inputs = try Self.describe(runtime, created, input: true)
            outputs = try Self.describe(runtime, created, input: false)
        } catch {
            api.pointee.ReleaseSession(created)
            throw error
        }
        let notFloat = (inputs + outputs).filter { !$0.isFloat }
        guard notFloat.isEmpty, !inputs.isEmpty, !outputs.isEmpty else {
            api.pointee.ReleaseSession(created)
            let what =
                inputs.isEmpty || outputs.isEmpty
                ? "has no inputs or no outputs"
                : "has a tensor that is not float32 (\(notFloat.map(\.description).joined(separator: ", ")))"
            throw OnnxError(.model, "\(MessageText.quote(path)) \(what); padbench runs float32 image networks")
        }
        inputNames = inputs.map { UnsafePointer(strdup($0.name)) }
        outputNames = outputs.map { UnsafePointer(strdup($0.name)) }
    }

    deinit {
        runtime.api.pointee.ReleaseSession(session)
        for name in inputNames + outputNames { free(UnsafeMutablePointer(mutating: name)) }
    }

    /// Names, element types and shapes of the model's inputs or outputs.
    private static func describe(_ runtime: OnnxRuntime, _ session: OpaquePointer, input: Bool) throws(OnnxError)
        -> [OnnxTensorInfo]
    {
        let api = runtime.api
        var count = 0
        try runtime.check(
            input
                ? api.pointee.SessionGetInputCount(session, &count)
                : api.pointee.SessionGetOutputCount(session, &count),
            .model, "cannot count the model's tensors")
        var allocator: OpaquePointer?
        try runtime.check(api.pointee.GetAllocatorWithDefaultOptions(&allocator), .model, "no default allocator")
        var infos: [OnnxTensorInfo] = []
        for index in 0..<count {
            var namePointer: UnsafeMutablePointer<CChar>?
            try runtime.check(
                input
                    ? api.pointee.SessionGetInputName(session, index, allocator, &namePointer)
                    : api.pointee.SessionGetOutputName(session, index, allocator, &namePointer),
                .model, "cannot read a tensor name")
            let name = namePointer.map { String(cString: $0) } ?? ""
            if let namePointer {
                _ = api.pointee.AllocatorFree(allocator, namePointer).map { api.pointee.ReleaseStatus($0) }
            }
            var typeInfo: OpaquePointer?
            try runtime.check(
                input
                    ? api.pointee.SessionGetInputTypeInfo(session, index, &typeInfo)
                    : api.pointee.SessionGetOutputTypeInfo(session, index, &typeInfo),
                .model, "cannot read the type of \(name)")
            defer { api.pointee.ReleaseTypeInfo(typeInfo) }
            var onnxType: Int32 = 0
            try runtime.check(api.pointee.GetOnnxTypeFromTypeInfo(typeInfo, &onnxType), .model, name)
            guard onnxType == 1 else { // ONNX_TYPE_TENSOR
                infos.append(OnnxTensorInfo(name: name, elementType: -Int(onnxType), shape: []))
                continue
            }
            var tensorInfo: OpaquePointer?
            try runtime.check(api.pointee.CastTypeInfoToTensorInfo(typeInfo, &tensorInfo), .model, name)
            var elementType: Int32 = 0
            try runtime.check(api.pointee.GetTensorElementType(tensorInfo, &elementType), .model, name)
            var rank = 0
            try runtime.check(api.pointee.GetDimensionsCount(tensorInfo, &rank), .model, name)
            var dims = [Int64](repeating: 0, count: rank)
            try runtime.check(api.pointee.GetDimensions(tensorInfo, &dims, rank), .model, name)
            infos.append(
                OnnxTensorInfo(name: name, elementType: Int(elementType), shape: dims.map { $0 < 0 ? -1 : Int($0) }))
        }
        return infos
    }

    /// Runs the model on one float input tensor (the model's first input) and returns every output.
    /// `values.count` must equal the product of `shape`.
    package func run(_ values: [Float], shape: [Int]) throws(OnnxError) -> [OnnxTensor] {
        let api = runtime.api
        guard shape.reduce(1, *) == values.count, shape.allSatisfy({ $0 > 0 }) else {
            throw OnnxError(.run, "input of \(values.count) values does not fill the shape \(shape)")
        }
        let dims = shape.map(Int64.init)
        var input: OpaquePointer?
        var outputsOut = [OpaquePointer?](repeating: nil, count: outputs.count)
        var status: OpaquePointer?
        values.withUnsafeBufferPointer { buffer in
            // Safety: ONNX Runtime reads the input in place and never writes it; the buffer outlives `Run`.
            let data = UnsafeMutableRawPointer(mutating: buffer.baseAddress!)
            status = api.pointee.CreateTensorWithDataAsOrtValue(
                runtime.cpuMemory, data, buffer.count * MemoryLayout<Float>.stride, dims, dims.count, 1, &input)
            guard status == nil else { return }
            var inputValue: OpaquePointer? = input
            status = withUnsafePointer(to: &inputValue) { inputPointer in
                api.pointee.Run(session, nil, inputNames, inputPointer, 1, outputNames, outputNames.count, &outputsOut)
            }
            api.pointee.ReleaseValue(input)
        }
        defer { for value in outputsOut { api.pointee.ReleaseValue(value) } }
        try runtime.check(status, .run, "ONNX Runtime failed on \(path)")
        var tensors: [OnnxTensor] = []
        for value in outputsOut {
            var shapeInfo: OpaquePointer?
            try runtime.check(api.pointee.GetTensorTypeAndShape(value, &shapeInfo), .run, path)
            defer { api.pointee.ReleaseTensorTypeAndShapeInfo(shapeInfo) }
            var rank = 0, count = 0
            try runtime.check(api.pointee.GetDimensionsCount(shapeInfo, &rank), .run, path)
            var outDims = [Int64](repeating: 0, count: rank)
            try runtime.check(api.pointee.GetDimensions(shapeInfo, &outDims, rank), .run, path)
            try runtime.check(api.pointee.GetTensorShapeElementCount(shapeInfo, &count), .run, path)
            var data: UnsafeMutableRawPointer?
            try runtime.check(api.pointee.GetTensorMutableData(value, &data), .run, path)
            let floats = data.map {
                Array(UnsafeBufferPointer(start: $0.assumingMemoryBound(to: Float.self), count: count))
            }
            tensors.append(OnnxTensor(shape: outDims.map { Int($0) }, values: floats ?? []))
        }
        return tensors
    }
}

#if canImport(Glibc)
import Glibc
#endif
