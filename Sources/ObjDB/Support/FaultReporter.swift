import Foundation
import Synchronization

/// Where the faults go that a call which cannot throw meets: a property getter reading a damaged
/// record, a `Results` counted while the reader table is full.
///
/// Such a call reads zero values, `nil` or nothing instead, and reports the fault here once
/// (each distinct fault once per open store): to ``Configuration/faultHandler``, or by default
/// as one line on standard error. Calls that can throw throw the fault instead.
final class FaultReporter: Sendable {
    private let handler: (@Sendable (ObjDBError) -> Void)?
    private let reported = Lock<Set<String>>([])

    init(handler: (@Sendable (ObjDBError) -> Void)?) {
        self.handler = handler
    }

    /// Reports `error`, unless the same fault was reported before.
    func report(_ error: any Error) {
        let fault =
            error as? ObjDBError ?? ObjDBError(.lmdb, "an unexpected error: \(error)", details: ["\(error)"])
        let key = [fault.code.rawValue, fault.path ?? "", fault.typeName ?? "", fault.message].joined(
            separator: "\u{1F}")
        guard reported.withLock({ $0.insert(key).inserted }) else { return }
        if let handler {
            handler(fault)
        } else {
            FileHandle.standardError.write(Data("objdb: \(fault.message)\n".utf8))
        }
    }
}
