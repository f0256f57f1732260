import Foundation
import ObjDB

/// `observe-first PATH KIND RUNS`: what a command-line program does to observe, as a user of the
/// README writes it. On a fresh store each run, it observes counter 1 (`KIND` `object`) or all
/// counters (`results`) from a view made on the main thread, commits a change right after
/// `observe` returns, then runs the main run loop until the change arrives. Prints `heard` per
/// run, or `missed` after 10 seconds.
func observeFirst(path: String, kind: String, runs: Int) throws {
    for run in 0..<runs {
        let database = try Database(path: "\(path)-\(run)", types: [Counter.self])
        try database.write { try $0.create(Counter.self, value: ["id": 1, "value": 1]) }
        let view = try database.view()
        var heard = false
        let token: NotificationToken
        if kind == "object" {
            token = try view.object(ofType: Counter.self, forPrimaryKey: 1)!.observe { change in
                if case .change(let counter, _) = change, counter.value == 2 { heard = true }
            }
        } else {
            token = try view.objects(Counter.self).observe { change in
                if change.collection?.first?.value == 2 { heard = true }
            }
        }
        try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.value = 2 }
        let deadline = Date().addingTimeInterval(10)
        while !heard && Date() < deadline {
            _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.05))
        }
        say(heard ? "heard" : "missed")
        token.invalidate()
    }
}
