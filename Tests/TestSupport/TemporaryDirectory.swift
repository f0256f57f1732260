import Foundation

/// A directory of its own for one test, removed when the test lets go of it.
public final class TemporaryDirectory {
    /// The directory's path.
    public let path: String

    /// Creates an empty directory under the system's temporary directory.
    public init() {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("objdb-tests-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path for a store file inside the directory.
    public func store(_ name: String = "store.objdb") -> String {
        path + "/" + name
    }
}

/// A test's own failure, with the reason.
public struct TestFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// A failure saying `description`.
    public init(_ description: String) { self.description = description }
}
