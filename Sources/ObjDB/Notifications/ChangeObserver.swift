import Foundation

/// What an observer wants done after a round.
enum ObserverOutput {
    /// Run on the view's queue, after the view moved to the round's snapshot.
    case view(ViewDelivery, () -> Void)
    /// Run now, on the notifier's thread (frozen deliveries to async sequences).
    case now(() -> Void)
}

/// An observer, as the notifier drives it. It is made where its view belongs and handed to the
/// notifier by ``ChangeNotifier/add(_:onStop:)``; from then on only the notifier's thread calls
/// `process`, `fail` and `end`, and other threads read only its constant `id` and `delivery`.
protocol ChangeObserver: AnyObject {
    var id: Int { get }
    /// The version the observer has caught up with; `nil` before its first round.
    var version: Int? { get }
    /// The view queue it delivers to, if any: the view moves with every round it takes part in.
    var delivery: ViewDelivery? { get }
    func process(_ round: NotificationRound) throws -> ObserverOutput?
    /// The observer cannot be served: its last delivery reports `error`, and it stops.
    func fail(_ error: any Error) -> ObserverOutput
    /// The notifier is going away: end any sequence the observer feeds.
    func end()
}

extension ChangeObserver {
    func end() {}
}
