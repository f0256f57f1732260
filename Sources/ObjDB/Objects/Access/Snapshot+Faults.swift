/// What the reads that cannot throw (a `Results`' count and elements, a property) do with a
/// fault: they report it once to the store's ``FaultReporter`` and read on as empty or zero
/// values (docs/ARCHITECTURE.md, "Faults on paths that cannot throw").
extension Snapshot {
    /// Reports a fault a read that cannot throw met.
    func report(_ fault: any Error) {
        catalog.faults.report(fault)
    }

    /// The object key a table key of `binding`'s type encodes. A damaged key is reported and
    /// reads as internal ID 0; the object still reads its record through the table key.
    func objectKey(fromTableKey key: [UInt8], of binding: TypeBinding) -> ObjectKey {
        binding.objectKey(fromTableKey: key) ?? standInForDamagedKey(of: binding)
    }

    /// Reports a table key of `binding`'s type that does not decode, and returns the object key
    /// that stands for it (internal ID 0): the object is still counted, and read by its table key.
    func standInForDamagedKey(of binding: TypeBinding) -> ObjectKey {
        report(damagedKey(of: binding))
        return .internalID(0)
    }

    /// The error a table key of `binding`'s type that does not decode is.
    func damagedKey(of binding: TypeBinding) -> ObjDBError {
        .corruptRecord(path: catalog.path, type: binding.schema.name, reason: "its key does not decode")
    }

    /// An object of `type` that stands for one a fault kept from being read: it has no record,
    /// so its properties read as zero values.
    func placeholderObject<T: ObjectBase>(_ type: T.Type, binding: TypeBinding) -> T {
        let object = makeObject(type, binding: binding, keyBytes: [], key: .internalID(0))
        object.accessor?.prime(with: RecordReader.empty)
        return object
    }
}
