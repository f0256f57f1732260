import Foundation
import Synchronization

/// Ctrl-C in the interactive shell: it stops the running command (a `watch`) instead of the shell.
enum Interrupt {
    private static let flag = Atomic<Bool>(false)

    /// Catches SIGINT from now on: it only raises the flag.
    static func catchInterrupts() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in Interrupt.flag.store(true, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: a sleep or a read returns early
        sigaction(SIGINT, &action, nil)
        // A parent may have started us with SIGINT blocked (Foundation's Process does).
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigprocmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Whether Ctrl-C was pressed since the last ``reset()``.
    static var isRaised: Bool { flag.load(ordering: .relaxed) }

    /// Lowers the flag.
    static func reset() { flag.store(false, ordering: .relaxed) }
}
