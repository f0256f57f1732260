extension Snapshot {
    /// A managed object for `key`, which must exist, reusing the instance in `recycled` when
    /// nothing else can reach it; the object returned is left in `recycled` for next time.
    ///
    /// A loop over results, or over point reads, lets go of each object before it asks for
    /// the next. Pointing that instance at the next object saves an allocation, every
    /// `@Persisted` initializer and a deinit per row. It happens only when no strong, weak or
    /// unowned reference besides `recycled` exists, so no caller can tell, and only for classes
    /// with no stored state of their own (``DiscoveredType/isRecyclable``). Frozen snapshots'
    /// objects may cross threads, so they are always new.
    func object<T: ObjectBase>(
        recycling recycled: inout T?, _ type: T.Type, binding: TypeBinding, keyBytes: [UInt8], key: ObjectKey
    ) -> T {
        if let object = reusable(&recycled, binding: binding, as: type) {
            object.accessor.unsafelyUnwrapped.repoint(key: keyBytes, objectKey: key)
            return object
        }
        let object = makeObject(type, binding: binding, keyBytes: keyBytes, key: key)
        recycled = isFrozen ? nil : object
        return object
    }

    /// ``object(recycling:_:binding:keyBytes:key:)`` for a key read in place: a recycled object
    /// copies it into its own key array, and `record`, when given, is the object's record.
    func object<T: ObjectBase>(
        recycling recycled: inout T?, _ type: T.Type, binding: TypeBinding, copying keyBytes: UnsafeRawBufferPointer,
        key: ObjectKey, record: RecordReader?
    ) -> T {
        if let object = reusable(&recycled, binding: binding, as: type) {
            let accessor = object.accessor.unsafelyUnwrapped
            accessor.repoint(copying: keyBytes, objectKey: key)
            if let record { accessor.prime(with: record) }
            return object
        }
        let object = makeObject(type, binding: binding, keyBytes: Array(keyBytes), key: key)
        if let record { object.accessor?.prime(with: record) }
        recycled = isFrozen ? nil : object
        return object
    }

    /// The object in `recycled` when it may be repointed: nothing else can reach it.
    func reusable<T: ObjectBase>(_ recycled: inout T?, binding: TypeBinding, as type: T.Type) -> T? {
        guard !isFrozen, binding.discovered?.isRecyclable == true, isKnownUniquelyReferenced(&recycled),
            let object = recycled, canRepoint(object, to: binding, as: type)
        else { return nil }
        return object
    }

    /// Whether `object`, held only by the caller's slot and the caller, is a plain managed
    /// instance of `binding`'s class in this snapshot, whose accessor nothing else holds.
    private func canRepoint<T: ObjectBase>(_ object: T, to binding: TypeBinding, as type: T.Type) -> Bool {
        // The baseline counts: one weak (no side table, or an empty one) and one unowned (held
        // by the strong references together).
        guard Swift.type(of: object) == (binding.swiftType ?? type), _getWeakRetainCount(object) == 1,
            _getUnownedRetainCount(object) == 1, object.tracer == nil,
            isKnownUniquelyReferenced(&object.accessor)
        else { return false }
        // Not nil (a nil accessor is not uniquely referenced), and kept alive by `object`: no retain.
        unowned(unsafe) let accessor = object.accessor.unsafelyUnwrapped
        return accessor.isRepointable(in: self, binding: binding)
    }
}
