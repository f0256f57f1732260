extension ReadView {
    /// The view's records, cursors and backlinks, in its read transaction (begun if need be): what
    /// the tools above the core (`objdb-inspect`) read a view through.
    ///
    /// Valid until the view writes, refreshes or is released; make one per read.
    package func recordSource() throws -> RecordSource {
        try snapshot.source()
    }
}
