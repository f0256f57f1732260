import Foundation

/// One typed comparison of a value's stored bytes with constants, built once by the compiler.
///
/// A test is plain data (no references, no closures): the program keeps its tests in one
/// buffer and its constants in a pool, so running a test allocates nothing and retains nothing,
/// except where text must be folded (`[c]`, `[d]` on non-ASCII text, `LIKE`) or a `Decimal` decoded.
struct FieldTest {
    /// How the bytes are read, and compared.
    enum Kind: UInt8 {
        /// An integer, against integers.
        case integer
        /// An integer, against one integer by `==`, `!=`, `<`, `<=`, `>` or `>=`, compared undecoded:
        /// the field's bytes against the constant's encoding, which sort as the values do.
        case encodedInteger
        /// An integer, against doubles (`count > 2.5`).
        case integerAsDouble
        /// A `Float`, as the `Double` it widens to.
        case float
        /// A `Double`, or a `Date`'s seconds since 2001.
        case double
        /// A `Bool`, against 0 or 1.
        case bool
        /// Raw bytes: strings (UTF-8, no modifiers), data, UUIDs, link keys.
        case bytes
        /// A string with `[c]` and/or `[d]`, against folded constants.
        case folded
        /// A string against a `LIKE` pattern.
        case like
        /// A `Decimal`, against decimals.
        case decimal
        /// The same answer for every non-nil value (`x == nil` for a value that is there).
        case constant
    }

    enum Operator: UInt8 {
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual, between, oneOf
        case beginsWith, endsWith, contains
    }

    var kind: Kind
    var op: Operator
    /// The property's element type, which says how integers are stored.
    var type: PropertyType
    /// The answer for a `nil` value.
    var nilOutcome: Bool
    /// The answer for a record that predates the property (it reads as the zero value) or a damaged field.
    var absentOutcome = false
    /// Whether a field the record lacks reads as `nil` (optional values, links) rather than as the zero value.
    var absentReadsAsNil = false
    /// The answer of a ``Kind/constant`` test.
    var constantOutcome = false
    /// The slot read, for a test of the row's own field.
    var slot: Int = 0
    /// Integer constants, or where the constants lie in the pool (offset) and how many (count).
    var integer: Int64 = 0
    var integer2: Int64 = 0
    /// Double constants.
    var double: Double = 0
    var double2: Double = 0
    /// Where an ASCII `CONTAINS[c]` constant's bytes lie in the pool, for the byte scan that
    /// answers without folding (``FilterProgram/Instruction/Opcode/asciiContainsTest``).
    var asciiNeedleOffset: Int32 = 0
    var asciiNeedleCount: Int32 = 0

    /// Where the constant bytes start in the pool, and their count (``Kind/bytes``); for
    /// ``Operator/oneOf`` and ``Operator/between``, where the table of `(offset, count)` pairs
    /// starts and its length; for ``Kind/folded``, ``Kind/like`` and ``Kind/decimal``, the index
    /// of the constants in the program's side tables.
    var offset: Int { Int(truncatingIfNeeded: integer) }
    var count: Int { Int(truncatingIfNeeded: integer2) }
}

extension FieldTest {
    /// The answer for a field of a record.
    @inline(__always)
    func matches(_ field: RecordField, _ program: ProgramConstants) -> Bool {
        answer(for: field) { matches($0, program) }
    }

    /// The answer for a field: `ifPresent` on a value's bytes, else the outcome for `nil` or for a
    /// field the record lacks. (Every test, in line or not, treats the last two alike.)
    @inline(__always)
    func answer(for field: RecordField, _ ifPresent: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        switch field {
        case .bytes(let bytes): return ifPresent(bytes)
        case .null: return nilOutcome
        case .absent: return absentOutcome
        }
    }

    /// The answer for a non-nil value's bytes.
    @inline(__always)
    func matches(_ bytes: UnsafeRawBufferPointer, _ program: ProgramConstants) -> Bool {
        switch kind {
        case .integer:
            guard let value = FieldReads.integer(bytes, type: type) else { return absentOutcome }
            return matches(integer: value, program)
        case .encodedInteger:
            guard FieldReads.isInteger(bytes) else { return absentOutcome }
            return compare(Int64(ByteOrder.compare(bytes, program.bytes(at: offset, count: count))), 0)
        case .integerAsDouble:
            guard let value = FieldReads.integer(bytes, type: type) else { return absentOutcome }
            return matches(double: Double(value), program)
        case .float:
            guard let value = FieldReads.float(bytes) else { return absentOutcome }
            return matches(double: Double(value), program)
        case .double:
            guard let value = FieldReads.double(bytes) else { return absentOutcome }
            return matches(double: value, program)
        case .bool:
            guard let value = FieldReads.bool(bytes) else { return absentOutcome }
            return matches(integer: value ? 1 : 0, program)
        case .bytes:
            return matches(bytes: bytes, program)
        case .folded:
            return program.text(at: offset).matches(bytes, op)
        case .like:
            return program.text(at: offset).matchesLike(bytes)
        case .decimal:
            guard let value = FieldReads.decimal(bytes) else { return absentOutcome }
            return matches(decimal: value, program)
        case .constant:
            return constantOutcome
        }
    }

    /// The answer for the type's zero value (`0`, `false`, `""`, empty data, the zero UUID).
    func matchesZero(_ program: ProgramConstants) -> Bool {
        switch kind {
        case .integer, .bool: return matches(integer: 0, program)
        case .encodedInteger:
            var zero: [UInt8] = []
            FieldReads.appendInteger(0, to: &zero)
            return zero.withUnsafeBytes { matches($0, program) }
        case .integerAsDouble, .float, .double: return matches(double: 0, program)
        case .bytes:
            let zeros = [UInt8](repeating: 0, count: type == .uuid ? 16 : 0)
            return zeros.withUnsafeBytes { matches(bytes: $0, program) }
        case .folded: return [UInt8]().withUnsafeBytes { program.text(at: offset).matches($0, op) }
        case .like: return [UInt8]().withUnsafeBytes { program.text(at: offset).matchesLike($0) }
        case .decimal: return matches(decimal: 0, program)
        case .constant: return constantOutcome
        }
    }

    /// `value op constant` for the six ordered operators.
    @inline(__always)
    func compare(_ value: Int64, _ constant: Int64) -> Bool {
        switch op {
        case .equal: return value == constant
        case .notEqual: return value != constant
        case .less: return value < constant
        case .lessOrEqual: return value <= constant
        case .greater: return value > constant
        default: return value >= constant
        }
    }

    @inline(__always)
    func matches(integer value: Int64, _ program: ProgramConstants) -> Bool {
        switch op {
        case .equal: return value == integer
        case .notEqual: return value != integer
        case .less: return value < integer
        case .lessOrEqual: return value <= integer
        case .greater: return value > integer
        case .greaterOrEqual: return value >= integer
        case .between: return value >= integer && value <= integer2
        case .oneOf: return program.sortedIntegers(at: offset, count: count, contain: value)
        case .beginsWith, .endsWith, .contains: return false
        }
    }

    @inline(__always)
    func matches(double value: Double, _ program: ProgramConstants) -> Bool {
        switch op {
        case .equal: return value == double
        case .notEqual: return value != double
        case .less: return value < double
        case .lessOrEqual: return value <= double
        case .greater: return value > double
        case .greaterOrEqual: return value >= double
        case .between: return value >= double && value <= double2
        case .oneOf: return program.doubles(at: offset, count: count, contain: value)
        case .beginsWith, .endsWith, .contains: return false
        }
    }

    func matches(decimal value: Decimal, _ program: ProgramConstants) -> Bool {
        let constants = program.decimals(at: offset)
        guard let first = constants.first else { return false }
        switch op {
        case .equal: return value == first
        case .notEqual: return value != first
        case .less: return value < first
        case .lessOrEqual: return value <= first
        case .greater: return value > first
        case .greaterOrEqual: return value >= first
        case .between: return constants.count == 2 && value >= first && value <= constants[1]
        case .oneOf: return constants.contains(value)
        case .beginsWith, .endsWith, .contains: return false
        }
    }

    @inline(__always)
    func matches(bytes value: UnsafeRawBufferPointer, _ program: ProgramConstants) -> Bool {
        switch op {
        case .oneOf:
            return program.byteTable(at: offset, count: count, contains: value)
        case .between:
            let low = program.byteTableEntry(at: offset, 0)
            let high = program.byteTableEntry(at: offset, 1)
            return ByteOrder.compare(value, low) >= 0 && ByteOrder.compare(value, high) <= 0
        default:
            return ByteOrder.test(value, op, program.bytes(at: offset, count: count))
        }
    }
}

/// Byte comparisons: LMDB's and `memcmp`'s order, prefixes, suffixes and containment.
enum ByteOrder {
    /// Bytewise order: the shorter of two prefixes first.
    @inline(__always)
    static func compare(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int {
        let common = min(lhs.count, rhs.count)
        if common > 0, let left = lhs.baseAddress, let right = rhs.baseAddress {
            if common <= 16 {
                for index in 0..<common {
                    let a = left.load(fromByteOffset: index, as: UInt8.self)
                    let b = right.load(fromByteOffset: index, as: UInt8.self)
                    if a != b { return a < b ? -1 : 1 }
                }
            } else {
                let order = memcmp(left, right, common)
                if order != 0 { return Int(order) }
            }
        }
        return lhs.count - rhs.count
    }

    @inline(__always)
    static func equal(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard lhs.count > 0, let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
        // Short values (language codes, flags, small keys) cost less compared in line than in a call.
        if lhs.count <= 16 {
            for index in 0..<lhs.count
            where left.load(fromByteOffset: index, as: UInt8.self)
                != right.load(fromByteOffset: index, as: UInt8.self)
            {
                return false
            }
            return true
        }
        return memcmp(left, right, lhs.count) == 0
    }

    /// `value op constant` for the operators that apply to bytes.
    @inline(__always)
    static func test(_ value: UnsafeRawBufferPointer, _ op: FieldTest.Operator, _ constant: UnsafeRawBufferPointer)
        -> Bool
    {
        switch op {
        case .equal: return equal(value, constant)
        case .notEqual: return !equal(value, constant)
        case .less: return compare(value, constant) < 0
        case .lessOrEqual: return compare(value, constant) <= 0
        case .greater: return compare(value, constant) > 0
        case .greaterOrEqual: return compare(value, constant) >= 0
        case .beginsWith:
            return value.count >= constant.count
                && equal(UnsafeRawBufferPointer(rebasing: value[0..<constant.count]), constant)
        case .endsWith:
            return value.count >= constant.count
                && equal(UnsafeRawBufferPointer(rebasing: value[(value.count - constant.count)...]), constant)
        case .contains: return contains(value, constant)
        case .between, .oneOf: return false
        }
    }

    /// Whether `needle` occurs in `haystack`.
    static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count, let base = haystack.baseAddress, let first = needle.first else {
            return false
        }
        var start = 0
        let last = haystack.count - needle.count
        while start <= last {
            guard let hit = memchr(base + start, Int32(first), last - start + 1) else { return false }
            let position = base.distance(to: UnsafeRawPointer(hit))
            if memcmp(base + position, needle.baseAddress!, needle.count) == 0 { return true }
            start = position + 1
        }
        return false
    }
}
