import Foundation
import ObjDB

// The concurrency suite's model, shared with the test process: transfers between accounts keep
// the total balance constant, and each transfer is one transaction that also appends a Transfer
// record and counts it in the ledger. A reader that saw part of a transaction would see a wrong
// total or a count that differs from the ledger's.

final class Account: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var balance = 0
}

final class Transfer: Object {
    @Persisted(primaryKey: true) var id = ""
    @Persisted(indexed: true) var sequence = 0
    @Persisted var amount = 0
}

final class TransferLedger: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var transfers = 0
}

let transferTypes: [ObjectBase.Type] = [Account.self, Transfer.self, TransferLedger.self]

/// Makes `count` transfers, one transaction each, named `<writer>-<n>`.
func runTransferWriter(path: String, writer: String, count: Int) throws {
    let database = try Database(path: path, types: transferTypes)
    var random = SplitMix(seed: UInt64(abs(writer.hashValue)))
    for number in 0..<count {
        try database.write { transaction in
            let accounts = Array(transaction.objects(Account.self))
            guard accounts.count >= 2 else { return }
            let from = accounts[random.below(accounts.count)]
            let to = accounts[random.below(accounts.count)]
            let amount = random.below(100)
            from.balance -= amount
            to.balance += amount
            let ledger = try transaction.create(TransferLedger.self, value: ["id": 0], update: .modified)
            ledger.transfers += 1
            try transaction.create(
                Transfer.self, value: ["id": "\(writer)-\(number)", "sequence": ledger.transfers, "amount": amount])
        }
    }
    say("transferred \(count)")
}
