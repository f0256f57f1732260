import Foundation
import TestSupport
import Testing

@testable import ObjDB

@Suite("Security")
struct SecurityTests {
    let directory = TemporaryDirectory()

    @Test func aNewStoreAndTheFilesBesideItAreReadableByTheOwnerOnly() throws {
        _ = try Database(path: directory.store(), types: [Tweet.self, TwitterUser.self])
        for path in [directory.store(), directory.store() + "-lock", directory.store() + "-watch"] {
            #expect(try permissions(of: path) == 0o600 & ~processUmask())
        }
    }

    @Test func theConfiguredFileModeIsUsed() throws {
        var configuration = Configuration(path: directory.store(), types: [Tweet.self, TwitterUser.self])
        configuration.fileMode = 0o640
        _ = try Database(configuration: configuration)
        #expect(try permissions(of: directory.store()) == 0o640 & ~processUmask())
    }

    @Test func aCompactedCopyIsReadableByTheOwnerOnly() throws {
        let (environment, _) = try makeStore(in: directory)
        try environment.copy(to: directory.store("copy.objdb"))
        #expect(try permissions(of: directory.store("copy.objdb")) == 0o600 & ~processUmask())
        #expect(throws: ObjDBError.self) { try environment.copy(to: directory.store("copy.objdb")) }
    }

    @Test func theInspectorChangesNothingInTheStore() throws {
        let path = directory.store()
        try makeObjectStore(at: path)
        let before = try fingerprint(path)
        for command in [
            ["info"], ["schema"], ["count"], ["dump", "Tweet", "--limit", "3"], ["get", "TwitterUser", "1"],
            ["check"], ["export", "--format", "ndjson"],
        ] {
            let run = try TestSupport.run("objdb-inspect", [path] + command)
            #expect(run.status == 0, "objdb-inspect \(command.joined(separator: " ")): \(run.error)")
        }
        #expect(try fingerprint(path) == before)
    }

    @Test func noNameOrPayloadMakesObjDBWriteOutsideTheStoresFiles() throws {
        let store = directory.store("inner/store.objdb")
        try FileManager.default.createDirectory(
            atPath: (store as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let database = try Database(path: store, types: [Tweet.self, TwitterUser.self])
        let hostile = ["../../escape", "/tmp/objdb-escape", "..", "a/b", "\u{0}x", "~/x", "$(touch x)"]
        try database.write { transaction in
            for (number, name) in hostile.enumerated() {
                try transaction.create(
                    TwitterUser.self, value: ["id": number, "screenName": name, "name": name], update: .modified)
            }
        }
        for name in hostile {
            #expect(throws: ObjDBError.self) {
                try database.write { try $0.dynamicCreate(name, value: ["id": 1]) }
            }
            _ = try? database.view().dynamicObjects(name, filter: nil)
        }
        try database.environment.copy(to: directory.store("inner/copy.objdb"))
        let files = try FileManager.default.subpathsOfDirectory(atPath: directory.path).sorted()
        let expected = ["inner", "inner/copy.objdb", "inner/store.objdb", "inner/store.objdb-lock"]
        #expect(files == expected + ["inner/store.objdb-watch"])
        #expect(!FileManager.default.fileExists(atPath: "/tmp/objdb-escape"))
    }
}

/// The permission bits of the file at `path`.
private func permissions(of path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1) & 0o777
}

/// The process's umask, read without changing it (`/proc/self/status`).
private func processUmask() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
    return line.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) } ?? 0o022
}

/// The file's modification time and contents.
private func fingerprint(_ path: String) throws -> [String: Data] {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return ["\(attributes[.modificationDate] ?? 0)": try Data(contentsOf: URL(fileURLWithPath: path))]
}
