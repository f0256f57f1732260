import Foundation

/// A value that can look an object up by primary key: an integer, a `String` or a `UUID`.
public protocol PrimaryKeyValue {
    /// The key as the store holds it.
    var _objectKey: ObjectKey { get }
}

extension Int: PrimaryKeyValue { public var _objectKey: ObjectKey { .int(Int64(self)) } }
extension Int8: PrimaryKeyValue { public var _objectKey: ObjectKey { .int(Int64(self)) } }
extension Int16: PrimaryKeyValue { public var _objectKey: ObjectKey { .int(Int64(self)) } }
extension Int32: PrimaryKeyValue { public var _objectKey: ObjectKey { .int(Int64(self)) } }
extension Int64: PrimaryKeyValue { public var _objectKey: ObjectKey { .int(self) } }
extension String: PrimaryKeyValue { public var _objectKey: ObjectKey { .string(self) } }
extension UUID: PrimaryKeyValue { public var _objectKey: ObjectKey { .uuid(self) } }
