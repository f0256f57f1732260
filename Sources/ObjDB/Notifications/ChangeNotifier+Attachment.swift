import Foundation

extension ChangeNotifier: DatabaseAttachment, CommitObserver {
    func databaseWillClose() {
        stop()
    }

    func willCommit(version: Int, silencing observerIDs: Set<Int>) {
        silence(version: version, observerIDs: observerIDs)
    }

    func didFailToCommit(version: Int) {
        silence(version: version, observerIDs: [], replacing: true)
    }

    func didCommit(version: Int) {
        commitLanded()
    }
}

extension Database {
    /// The notifier of this database, made with its first observer (its thread starts then).
    var notifier: ChangeNotifier {
        attachments.attachment(ChangeNotifier.self) { ChangeNotifier(database: self) }
    }
}
