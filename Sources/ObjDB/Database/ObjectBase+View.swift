extension ObjectBase {
    /// The view the object reads from, if the store manages it.
    public var view: ReadView? {
        accessor.map { ReadView(snapshot: $0.snapshot) }
    }
}
