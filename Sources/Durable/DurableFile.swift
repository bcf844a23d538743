#if canImport(Glibc)
    import Glibc
#endif

/// Why a file could not be read or written; the message names it.
public struct FileError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        case missing
        case isDirectory
        case notRegularFile
        case unreadable(errno: Int32)
        case unwritable(errno: Int32)
        /// Larger than the reader takes (`limit` bytes).
        case tooLarge(limit: Int)
    }

    public let path: String
    public let kind: Kind

    public init(path: String, _ kind: Kind) {
        self.path = path
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .missing: return "\(path): no such file. Check the path."
        case .isDirectory: return "\(path): is a directory, not a file."
        case .notRegularFile: return "\(path): not a regular file."
        case .unreadable(let code): return "\(path): cannot be read (\(errnoDescription(code))). Check its permissions."
        case .unwritable(let code):
            return "\(path): cannot be written (\(errnoDescription(code))). Check the folder exists and is writable."
        case .tooLarge(let limit):
            return "\(path): larger than the \(limit / (1 << 20)) MiB this reads. Give the file it expects."
        }
    }
}

/// The C library's sentence for an errno value, e.g. "Permission denied".
public func errnoDescription(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "errno \(code)" }
    return String(cString: text)
}

/// Reading whole files, and writing them so that a crash leaves the old file or the whole new one.
public enum DurableFile {
    /// The whole regular file at `path`, or its first `prefix` bytes; a file larger than `limit`
    /// is refused before it is read. A FIFO, a device or a socket is refused without waiting on it.
    public static func read(_ path: String, prefix: Int? = nil, limit: Int = .max) throws(FileError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO with no writer would otherwise wait for ever.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: throw FileError(path: path, .missing)
            case EISDIR: throw FileError(path: path, .isDirectory)
            default: throw FileError(path: path, .unreadable(errno: code))
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError(path: path, .unreadable(errno: errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: throw FileError(path: path, .isDirectory)
        case S_IFREG: break
        default: throw FileError(path: path, .notRegularFile)
        }
        let wanted = prefix ?? Int.max
        if prefix == nil, Int(info.st_size) > limit { throw FileError(path: path, .tooLarge(limit: limit)) }
        var result = [UInt8]()
        result.reserveCapacity(min(Int(info.st_size), wanted))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while result.count < wanted {
            let room = min(chunk.count, wanted - result.count)
            switch retryingInterrupts("read", { chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, room) } }) {
            case .failure(let error): throw FileError(path: path, .unreadable(errno: error.code))
            case .success(0): return result
            case .success(let n):
                result.append(contentsOf: chunk[0..<n])
                // A file that grew past the limit while it was read.
                if result.count > limit { throw FileError(path: path, .tooLarge(limit: limit)) }
            }
        }
        return result
    }

    /// Writes `bytes` to `path` through `path.partial`, flushed to disk and renamed into place, and
    /// flushes the folder so the new name survives a power cut as well as a crash.
    /// `mode` is the new file's permission from its first byte on (0o600 for a secret).
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(FileError) {
        let temporary = path + ".partial"
        // A leftover partial file may carry other permissions: start afresh.
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode)
        guard fd >= 0 else { throw FileError(path: path, .unwritable(errno: errno)) }
        var written = 0
        while written < bytes.count {
            switch retryingInterrupts("write", { bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) } })
            {
            case .success(let n): written += n
            case .failure(let error):
                close(fd)
                unlink(temporary)
                throw FileError(path: path, .unwritable(errno: error.code))
            }
        }
        if fsync(fd) != 0 {
            let code = errno
            close(fd)
            unlink(temporary)
            throw FileError(path: path, .unwritable(errno: code))
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileError(path: path, .unwritable(errno: code))
        }
        syncFolder(of: path)
    }

    /// Flushes the folder holding `path`, so a new or renamed entry in it is on disk.
    public static func syncFolder(of path: String) {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let fd = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

/// A failed system call, with the errno it failed with, captured once right after the call.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    /// What was called, for the reason in a log: "VIDIOC_S_FMT on /dev/video0", "poll".
    public let call: String
    public let code: Int32

    public init(_ call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// The error the last system call on this thread set: errno, read once.
    public static func now(_ call: String) -> SystemError { SystemError(call, code: errno) }

    public var description: String { "\(call): \(errnoDescription(code)) (errno \(code))" }
}

/// Runs `body`, a system call that returns a negative number and sets errno on failure, again
/// while it is interrupted (EINTR); its result, or its failure with errno captured once.
public func retryingInterrupts<T: SignedInteger>(_ call: String, _ body: () -> T) -> Result<T, SystemError> {
    while true {
        let result = body()
        if result >= 0 { return .success(result) }
        let code = errno
        if code != EINTR { return .failure(SystemError(call, code: code)) }
    }
}

/// Standard error, kept quiet while a C library that prints its own complaints runs (libpng and
/// libjpeg write "libpng error: …" and "Corrupt JPEG data: …" before the tool's own one-line
/// error). One lock covers both: while a library runs, the process's standard error points at
/// /dev/null, and the tool's own lines wait their turn, so none of them is lost.
public enum QuietStderr {
    // nonisolated(unsafe): a mutex made once and only ever used through pthread_mutex_lock.
    nonisolated(unsafe) private static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(m, nil)
        return m
    }()
    private static func lock() { pthread_mutex_lock(mutex) }
    private static func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with standard error silenced.
    public static func run<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        let saved = dup(2)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        if saved >= 0, null >= 0 { dup2(null, 2) }
        if null >= 0 { close(null) }
        defer {
            if saved >= 0 {
                dup2(saved, 2)
                close(saved)
            }
        }
        return try body()
    }

    /// Writes to standard error, never while it is silenced; false when the write failed.
    @discardableResult
    public static func write(_ bytes: [UInt8]) -> Bool {
        lock()
        defer { unlock() }
        var offset = 0
        while offset < bytes.count {
            switch retryingInterrupts("write", { bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress! + offset, $0.count - offset) } }) {
            case .success(let n): offset += n
            case .failure: return false
            }
        }
        return true
    }
}
