import Durable

/// Why an image file could not become a frame. The message names the file and what to do.
public struct ImageError: Error, Equatable, CustomStringConvertible {
    enum Kind: Equatable {
        case missing
        case isDirectory
        case notRegularFile
        case unreadable(errno: Int32)
        case empty
        case notAnImage
        case corrupt(format: String)
        case unsupportedDepth(Int)
        case cannotWrite(reason: String)
        /// More pixels than the reader decodes.
        case tooManyPixels(width: Int, height: Int)
        /// A file far larger than any camera frame.
        case tooLarge(limit: Int)
    }

    /// The file the error is about.
    public let path: String
    let kind: Kind

    init(path: String, _ kind: Kind) {
        self.path = path
        self.kind = kind
    }

    /// One line: the file, what is wrong with it, and what to do.
    public var description: String {
        switch kind {
        case .missing:
            return "\(path): no such file. Check the path."
        case .isDirectory:
            return "\(path): is a directory, not an image. Name the image files inside it."
        case .notRegularFile:
            return "\(path): not a regular file. Give a PNG, JPEG or PNM image file."
        case .unreadable(let code):
            return "\(path): cannot be read (\(errnoDescription(code))). Check its permissions."
        case .empty:
            return "\(path): the file is empty. Re-export or re-record the image."
        case .notAnImage:
            return "\(path): not an image this tool reads. Give a PNG, JPEG or PNM file."
        case .corrupt(let format):
            return "\(path): the \(format) data is corrupt or truncated. Re-export or re-record the image."
        case .unsupportedDepth(let depth):
            return "\(path): \(depth)-bit pixels cannot be turned into gray. Save it as 8-bit gray or RGB."
        case .cannotWrite(let reason):
            return "\(path): cannot write the image (\(reason)). Check the folder exists and is writable."
        case .tooManyPixels(let width, let height):
            return
                "\(path): \(width)x\(height) is more than the \(ImageFile.mostPixels / 1_000_000) million pixels this reads. Give a camera frame, or scale it down."
        case .tooLarge(let limit):
            return "\(path): larger than the \(limit / (1 << 20)) MiB an image may be here. Give a camera frame."
        }
    }
}
