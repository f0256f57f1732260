import Foundation
import ObjDB
import ObjDBInspection

// The crash suite's workload: random write transactions, derived from a seed, applied both to a
// store and to an in-memory model. The writer reports each commit as it returns; after the writer
// is killed, the verifier replays the same transactions on the model up to the commit the store
// holds, and compares everything.

final class CrashItem: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted(indexed: true) var score = 0
    @Persisted(unique: true) var code: String?
    @Persisted var tags: List<String>
    @Persisted var note: CrashNote?
    @Persisted var partner: CrashItem?
}

final class CrashNote: EmbeddedObject {
    @Persisted var text = ""
}

/// The number of the last committed transaction, written by every transaction.
final class CrashLedger: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var commits = 0
}

let crashTypes: [ObjectBase.Type] = [CrashItem.self, CrashNote.self, CrashLedger.self]

/// What the store should hold: the model's view of one item.
struct ItemState: Equatable {
    var name: String
    var score: Int
    var code: String?
    var tags: [String]
    var note: String?
    var partner: Int?
}

/// The deterministic workload: transaction `n` of seed `s` is the same in every process.
struct CrashWorkload {
    private var random: SplitMix
    private(set) var model: [Int: ItemState] = [:]
    private(set) var commits = 0

    init(seed: UInt64) { random = SplitMix(seed: seed) }

    /// One transaction's operations, applied to the model and, when given, to the store.
    mutating func nextTransaction(in transaction: WriteTransaction?) throws {
        var model = self.model
        for _ in 0..<random.below(8) + 1 {
            let id = random.below(150)
            switch random.below(8) {
            case 0, 1:  // insert or upsert a whole item
                let state = ItemState(
                    name: "item \(id) v\(random.below(1000))", score: random.below(50),
                    code: random.below(3) == 0 ? nil : "code-\(id)", tags: (0..<random.below(4)).map { "t\($0)" },
                    note: random.below(2) == 0 ? nil : "note \(random.below(100))", partner: model[id]?.partner)
                try transaction.map { transaction in
                    var value: [String: Any] = ["id": id, "name": state.name, "score": state.score, "tags": state.tags]
                    value["code"] = state.code ?? NSNull()
                    value["note"] = state.note.map { ["text": $0] as [String: Any] } ?? NSNull()
                    try transaction.create(CrashItem.self, value: value, update: .modified)
                }
                model[id] = state
            case 2:  // delete, which clears the partners pointing at it
                guard model[id] != nil else { continue }
                if let transaction, let item = transaction.object(ofType: CrashItem.self, forPrimaryKey: id) {
                    try transaction.delete(item)
                }
                model[id] = nil
                for (other, state) in model where state.partner == id { model[other]?.partner = nil }
            case 3:  // append a tag
                guard model[id] != nil else { continue }
                let tag = "x\(random.below(10))"
                transaction?.object(ofType: CrashItem.self, forPrimaryKey: id)?.tags.append(tag)
                model[id]?.tags.append(tag)
            case 4:  // remove the first tag
                guard let tags = model[id]?.tags, !tags.isEmpty else { continue }
                transaction?.object(ofType: CrashItem.self, forPrimaryKey: id)?.tags.remove(at: 0)
                model[id]?.tags.removeFirst()
            case 5:  // change the indexed value
                guard model[id] != nil else { continue }
                let score = random.below(50)
                transaction?.object(ofType: CrashItem.self, forPrimaryKey: id)?.score = score
                model[id]?.score = score
            case 6:  // link to another item
                let target = random.below(150)
                guard model[id] != nil, model[target] != nil else { continue }
                if let transaction, let item = transaction.object(ofType: CrashItem.self, forPrimaryKey: id) {
                    item.partner = transaction.object(ofType: CrashItem.self, forPrimaryKey: target)
                }
                model[id]?.partner = target
            default:  // rewrite the embedded note
                guard model[id] != nil else { continue }
                let text = "edited \(random.below(1000))"
                if let item = transaction?.object(ofType: CrashItem.self, forPrimaryKey: id) {
                    let note = CrashNote()
                    note.text = text
                    item.note = note
                }
                model[id]?.note = text
            }
        }
        let commits = self.commits + 1
        try transaction?.create(CrashLedger.self, value: ["id": 0, "commits": commits], update: .modified)
        self.model = model
        self.commits = commits
    }
}

/// SplitMix64: the same numbers in the writer and the verifier.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

func openCrashStore(_ path: String, durable: Bool) throws -> Database {
    var configuration = Configuration(path: path, types: crashTypes)
    configuration.isDurable = durable
    return try Database(configuration: configuration)
}

/// Writes transactions until killed, printing `commit N` after each commit returns.
func runCrashWriter(path: String, seed: UInt64, durable: Bool) throws -> Never {
    let database = try openCrashStore(path, durable: durable)
    var workload = CrashWorkload(seed: seed)
    // Catch up with what an earlier (killed) writer of this store committed.
    let done = try database.view().object(ofType: CrashLedger.self, forPrimaryKey: 0)?.commits ?? 0
    while workload.commits < done { try workload.nextTransaction(in: nil) }
    say("ready \(done)")
    while true {
        try database.write { transaction in try workload.nextTransaction(in: transaction) }
        say("commit \(workload.commits)")
    }
}

/// Reopens a store a writer was killed on and compares it with the model.
///
/// - Returns: `verified K` when the store holds exactly the first `K` transactions, `K` is
///   `reported` or `reported + 1` (the commit in flight may have landed), and the check passes.
func verifyCrashStore(path: String, seed: UInt64, reported: Int, durable: Bool) throws -> String {
    let database = try openCrashStore(path, durable: durable)
    let view = try database.view()
    let committed = view.object(ofType: CrashLedger.self, forPrimaryKey: 0)?.commits ?? 0
    guard committed == reported || committed == reported + 1 else {
        return "mismatch: the store holds \(committed) commits, the writer reported \(reported)"
    }
    var workload = CrashWorkload(seed: seed)
    while workload.commits < committed { try workload.nextTransaction(in: nil) }
    var stored: [Int: ItemState] = [:]
    for item in view.objects(CrashItem.self) {
        stored[item.id] = ItemState(
            name: item.name, score: item.score, code: item.code, tags: Array(item.tags), note: item.note?.text,
            partner: item.partner?.id)
    }
    if stored != workload.model {
        let differing = Set(stored.keys).union(workload.model.keys).filter { stored[$0] != workload.model[$0] }
        let first = differing.sorted().first!
        return "mismatch after \(committed) commits: \(differing.count) items differ; item \(first): stored "
            + "\(String(describing: stored[first])), expected \(String(describing: workload.model[first]))"
    }
    let problems = try StoreCheck(database: database).problems()
    guard problems.isEmpty else { return "mismatch: check found \(problems.count) problems: \(problems[0])" }
    return "verified \(committed) items \(stored.count)"
}
