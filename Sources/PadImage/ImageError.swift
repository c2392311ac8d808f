import PadVocabulary

/// Why an image could not be decoded. Each case maps to a stable sample status code
/// (`decode_error`, `unsupported_format`, `too_large`, `missing_file`) recorded in `samples.csv`.
package enum ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is not there or cannot be read.
    case missingFile(path: String, reason: String)
    /// The bytes are not a format padbench reads (neither JPEG, PNG nor binary PPM/PGM), or a
    /// variant of one that it refuses (for instance a 12-bit JPEG).
    case unsupportedFormat(String)
    /// The image is damaged: truncated, bad Huffman data, bad IDAT, bad header.
    case decodeError(String)
    /// The header announces more pixels than the configured limit; nothing was allocated.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// The file is larger than the byte limit (`--max-image-bytes`); it was not read.
    case fileTooLarge(bytes: Int, limit: Int)
    /// Encoding failed (for fixtures and generated data).
    case encodeError(String)
    /// A video over a limit other than the frame size (frame count, duration); nothing was
    /// allocated for the frames beyond it.
    case overLimit(String)

    /// The stable status code written to `samples.csv`.
    package var statusCode: FailureCode {
        switch self {
        case .missingFile: return .missingFile
        case .unsupportedFormat: return .unsupportedFormat
        case .decodeError: return .decodeError
        case .tooLarge, .fileTooLarge: return .tooLarge
        case .encodeError: return .encodeError
        case .overLimit: return .tooLarge
        }
    }

    package var description: String {
        switch self {
        case .missingFile(let path, let reason): return "cannot read \(MessageText.quote(path)): \(reason)"
        case .unsupportedFormat(let message): return message
        case .decodeError(let message): return message
        case .tooLarge(let width, let height, let limit):
            return "image is \(width)x\(height) = \(width * height) pixels, over the limit of \(limit)"
        case .fileTooLarge(let bytes, let limit):
            return "file is \(bytes) bytes, over the limit of \(limit) bytes (--max-image-bytes); not read"
        case .encodeError(let message): return message
        case .overLimit(let message): return message
        }
    }
}
