import Foundation
import Imaging
import Model

/// Frame files decoded once for the whole process: every scenario's camera over the same
/// recording shares the pictures instead of decoding them again (decoding is the slow part of
/// making a camera, and it runs one at a time, with standard error silenced). A file is known by
/// its path, size, inode and modification time, so one changed on disk is decoded again.
enum DecodedFrames {
    struct Key: Hashable {
        let path: String
        let size: Int
        let inode: UInt
        let modified: Int
    }

    /// The pixel bytes kept; past it the cache starts again.
    static let budget = 256 << 20
    private static let cache = Locked<(frames: [Key: Frame], bytes: Int)>(([:], 0))

    /// The frame in the file at `path`, decoded now or earlier.
    static func load(_ path: String) throws -> Frame {
        var info = stat()
        guard stat(path, &info) == 0 else { return try ImageFile.load(path) }
        let key = Key(
            path: path, size: Int(info.st_size), inode: UInt(info.st_ino),
            modified: Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec))
        if let known = cache.withLock({ $0.frames[key] }) { return known }
        let frame = try ImageFile.load(path)
        cache.withLock { kept in
            if kept.bytes + frame.bytes.count > budget { kept = ([:], 0) }
            kept.frames[key] = frame
            kept.bytes += frame.bytes.count
        }
        return frame
    }
}
