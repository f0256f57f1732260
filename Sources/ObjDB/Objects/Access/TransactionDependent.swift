/// Something reading a snapshot's read transaction beyond one call (a loop streaming a query's
/// matches), which must finish with it before the snapshot lets it go.
protocol TransactionDependent: AnyObject {
    /// Called before the snapshot ends or lets go of the read transaction: reads what it still
    /// needs from it, and closes its cursors.
    func transactionWillEnd()
}

/// A weakly held ``TransactionDependent``: a loop that ends drops out by itself.
struct WeakTransactionDependent {
    weak var dependent: (any TransactionDependent)?
}
