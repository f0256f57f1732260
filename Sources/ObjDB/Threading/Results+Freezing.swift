import Foundation

extension Results {
    /// An immutable snapshot of these results at the view's version, readable from any thread.
    public func freeze() throws -> FrozenResults<Element> {
        let view = try ReadView(snapshot: snapshot).freeze()
        return FrozenResults(view: view, keys: try keyList.fetchCurrent())
    }
}
