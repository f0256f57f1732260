extension ObjDBError {
    /// LMDB returned `code` from `operation` on the store at `path`.
    public static func lmdb(_ code: LMDBResultCode, operation: String, path: String) -> ObjDBError {
        ObjDBError(
            .lmdb, "\(operation) failed on \(path): \(code) (LMDB code \(code.rawValue))", path: path,
            operation: operation, lmdbCode: code.rawValue)
    }

    /// The LMDB result code behind the error: for ``Code/lmdb``, and ``LMDBResultCode/mapFull`` for ``Code/mapFull``.
    public var resultCode: LMDBResultCode? {
        if let lmdbCode { return LMDBResultCode(rawValue: lmdbCode) }
        return code == .mapFull ? .mapFull : nil
    }
}

extension LMDBResultCode {
    /// Whether `error` is an ``ObjDBError`` carrying this LMDB code: what lets
    /// `catch LMDBResultCode.readersFull` match.
    public static func ~= (code: LMDBResultCode, error: any Error) -> Bool {
        (error as? ObjDBError)?.resultCode == code
    }
}
