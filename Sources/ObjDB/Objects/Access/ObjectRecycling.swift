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
            let object = recycled, canRepoint(object, to: binding, as: binding.swiftType ?? type)
        else { return nil }
        return object
    }

    /// Whether this snapshot's objects of `binding` may be recycled at all (checked once per
    /// walk by ``repoint(_:as:binding:copying:key:record:)``'s callers).
    func recycles(_ binding: TypeBinding) -> Bool {
        !isFrozen && binding.discovered?.isRecyclable == true
    }

    /// Points the object in `recycled` at `key` (its table key `keyBytes`, read in place, and
    /// its record, when given) if nothing else can reach it, and says whether it did. For the
    /// walks of ``recycles(_:)`` snapshots and bindings; `type` is the class objects are made as.
    ///
    /// Not generic, and nothing here retains: the object and its accessor are borrowed from
    /// `recycled`, which keeps both alive throughout (W5 in docs/BENCHMARKS.md).
    @inline(__always)
    func repoint(
        _ recycled: inout ObjectBase?, as type: ObjectBase.Type, binding: TypeBinding,
        copying keyBytes: UnsafeRawBufferPointer, key: ObjectKey, record: RecordReader?
    ) -> Bool {
        guard isKnownUniquelyReferenced(&recycled) else { return false }
        return Unmanaged.passUnretained(recycled.unsafelyUnwrapped)._withUnsafeGuaranteedRef { object in
            guard canRepoint(object, to: binding, as: type) else { return false }
            return Unmanaged.passUnretained(object.accessor.unsafelyUnwrapped)._withUnsafeGuaranteedRef { accessor in
                accessor.repoint(copying: keyBytes, objectKey: key)
                if let record { accessor.prime(with: record) }
                return true
            }
        }
    }

    /// Whether `object`, held only by the caller's slot and the caller, is a plain managed
    /// instance of `binding`'s class (`type`) in this snapshot, whose accessor nothing else holds.
    @inline(__always)
    private func canRepoint(_ object: ObjectBase, to binding: TypeBinding, as type: ObjectBase.Type) -> Bool {
        // The baseline counts: one weak (no side table, or an empty one) and one unowned (held
        // by the strong references together).
        guard ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(type), _getWeakRetainCount(object) == 1,
            _getUnownedRetainCount(object) == 1, object.tracer == nil,
            isKnownUniquelyReferenced(&object.accessor)
        else { return false }
        // Not nil (a nil accessor is not uniquely referenced), and kept alive by `object`: no retain.
        return Unmanaged.passUnretained(object.accessor.unsafelyUnwrapped)._withUnsafeGuaranteedRef {
            $0.isRepointable(in: self, binding: binding)
        }
    }
}
