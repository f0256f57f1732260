import Foundation

/// A filter compiled for one type: a flat list of instructions over typed tests at precomputed
/// slots, run once per candidate record with no closures, no existentials and no allocation.
///
/// `a AND b` runs `a`, jumps to the end when it is false, then runs `b`; `OR` jumps when true,
/// `NOT` flips the answer. A test of the record's own field reads it in place; a test that
/// follows a link, walks a collection or reads linking objects is a ``NestedTest``, which runs a
/// nested program on each record it reaches.
///
/// A program holds no transaction: it reads through the ``RecordSource`` it is run with, so a
/// ``Results`` compiles its filter once and runs it in every snapshot it reads.
final class FilterProgram: @unchecked Sendable {
    // @unchecked Sendable: every property is set in `init` and never changed; the buffers are
    // owned by the program, written only before `init` returns and freed in `deinit`.

    struct Instruction {
        enum Opcode: UInt8 {
            /// The answer becomes `tests[index]` on the record's field.
            case test
            /// `tests[index]`, an integer compared by `==`, `!=`, `<`, `<=`, `>` or `>=`: the commonest
            /// test, run in line.
            case integerTest
            /// `tests[index]`, bytes (a string, say) compared by `==` or `!=`, run in line.
            case bytesEqualityTest
            /// `tests[index]`, a string `CONTAINS[c]` an ASCII constant: the byte scan, run in
            /// line, with the folded test behind it for the values only folding can answer.
            case asciiContainsTest
            /// The answer becomes `nested[index]` on the record.
            case nested
            /// The answer becomes `flag`.
            case constant
            /// Continues at `index` when the answer is false.
            case jumpIfFalse
            /// Continues at `index` when the answer is true.
            case jumpIfTrue
            /// The answer flips.
            case not
        }
        var opcode: Opcode
        var flag = false
        var index: Int32 = 0
    }

    private let code: UnsafeMutableBufferPointer<Instruction>
    private let tests: UnsafeMutableBufferPointer<FieldTest>
    private let pool: UnsafeMutableRawBufferPointer
    // Buffers, not arrays: a run reads them through a `Runner`, which holds no reference, so
    // running a program retains nothing.
    private let nested: UnsafeMutableBufferPointer<NestedTest>
    private let texts: UnsafeMutableBufferPointer<TextConstant>
    private let decimals: UnsafeMutableBufferPointer<[Decimal]>
    /// What a run reads: the buffers above, valid while the program lives.
    let runner: Runner

    init(
        code: [Instruction], tests: [FieldTest], pool: [UInt8], nested: [NestedTest], texts: [TextConstant],
        decimals: [[Decimal]]
    ) {
        self.code = .allocate(capacity: code.count)
        _ = self.code.initialize(from: code)
        self.tests = .allocate(capacity: tests.count)
        _ = self.tests.initialize(from: tests)
        self.pool = .allocate(byteCount: max(pool.count, 1), alignment: 8)
        self.pool.copyBytes(from: pool)
        self.nested = .allocate(capacity: nested.count)
        _ = self.nested.initialize(from: nested)
        self.texts = .allocate(capacity: texts.count)
        _ = self.texts.initialize(from: texts)
        self.decimals = .allocate(capacity: decimals.count)
        _ = self.decimals.initialize(from: decimals)
        let constants = ProgramConstants(
            pool: UnsafeRawPointer(self.pool.baseAddress!), texts: UnsafeBufferPointer(self.texts),
            decimals: UnsafeBufferPointer(self.decimals))
        runner = Runner(
            code: UnsafeBufferPointer(self.code), tests: UnsafeBufferPointer(self.tests),
            nested: UnsafeBufferPointer(self.nested), constants: constants)
        // Each test's answer for a field its record lacks: `nil` for optional values and links,
        // otherwise the answer for the type's zero value.
        for index in self.tests.indices {
            let test = self.tests[index]
            self.tests[index].absentOutcome = test.absentReadsAsNil ? test.nilOutcome : test.matchesZero(constants)
        }
    }

    deinit {
        code.deallocate()
        tests.deallocate()
        pool.deallocate()
        nested.deinitialize()
        nested.deallocate()
        texts.deinitialize()
        texts.deallocate()
        decimals.deinitialize()
        decimals.deallocate()
    }

    /// Whether the object whose record is `reader` and whose table key is `key` matches.
    ///
    /// - Throws: what reading a linked or linking object throws (a damaged record is
    ///   ``ObjDBError/corruptRecord(path:type:reason:)``; a link to nothing reads as `nil`).
    func matches(_ reader: RecordReader, key: UnsafeRawBufferPointer, in source: QueryReader) throws -> Bool {
        try withExtendedLifetime(self) { try runner.matches(reader, key: key, in: source) }
    }

    /// A program's buffers as plain pointers: what a scan runs, once per candidate, with no
    /// reference counting. Valid only while its program lives (a scan keeps it alive).
    struct Runner {
        let code: UnsafeBufferPointer<Instruction>
        let tests: UnsafeBufferPointer<FieldTest>
        let nested: UnsafeBufferPointer<NestedTest>
        let constants: ProgramConstants

        @inline(__always)
        func matches(_ reader: RecordReader, key: UnsafeRawBufferPointer, in source: QueryReader) throws -> Bool {
            var answer = true
            var position = 0
            let end = code.count
            while position < end {
                let instruction = code[position]
                position += 1
                switch instruction.opcode {
                case .integerTest:
                    // Integers are stored in an encoding whose bytes sort as the values do, so the
                    // field's bytes compare with the constant's encoding, undecoded.
                    let test = tests[Int(instruction.index)]
                    answer = test.answer(for: reader.field(test.slot)) { bytes in
                        guard FieldReads.isInteger(bytes) else { return test.absentOutcome }
                        let order = ByteOrder.compare(bytes, constants.bytes(at: test.offset, count: test.count))
                        return test.compare(Int64(order), 0)
                    }
                case .bytesEqualityTest:
                    let test = tests[Int(instruction.index)]
                    answer = test.answer(for: reader.field(test.slot)) { bytes in
                        ByteOrder.equal(bytes, constants.bytes(at: test.offset, count: test.count))
                            == (test.op == .equal)
                    }
                case .asciiContainsTest:
                    // The folded test would copy its constants (three arrays retained and
                    // released per record); the scan reads the needle from the pool instead.
                    let test = tests[Int(instruction.index)]
                    answer = test.answer(for: reader.field(test.slot)) { bytes in
                        ASCIIFolding.contains(bytes, needle(of: test))
                            ?? constants.text(at: test.offset).matchesFolding(bytes, test.op)
                    }
                case .test:
                    let test = tests[Int(instruction.index)]
                    answer = test.matches(reader.field(test.slot), constants)
                case .nested:
                    answer = try nested[Int(instruction.index)].matches(reader, key: key, in: source, program: self)
                case .constant:
                    answer = instruction.flag
                case .jumpIfFalse:
                    if !answer { position = Int(instruction.index) }
                case .jumpIfTrue:
                    if answer { position = Int(instruction.index) }
                case .not:
                    answer.toggle()
                }
            }
            return answer
        }

        /// The test at `index`, for nested tests that apply it to values other than a row's field.
        @inline(__always)
        func test(_ index: Int) -> FieldTest { tests[index] }

        /// The one test of a program that is a `CONTAINS[c]` of an ASCII constant of two bytes or
        /// more and nothing else (`text CONTAINS[c] 'swift'`), with its search; `nil` for any
        /// other program. A scan runs it with ``matches(_:_:)`` instead of the program's loop.
        var soleContains: ContainsScan? {
            guard code.count == 1, code[0].opcode == .asciiContainsTest else { return nil }
            let test = tests[Int(code[0].index)]
            return ASCIIFolding.BlockSearch(needle(of: test)).map { ContainsScan(test: test, search: $0) }
        }

        /// Whether the record `reader` matches the program whose ``soleContains`` is `text`.
        @inline(__always)
        func matches(_ reader: RecordReader, _ text: ContainsScan) -> Bool {
            text.test.answer(for: reader.field(text.test.slot)) { bytes in
                ASCIIFolding.contains(bytes, text.search)
                    ?? constants.text(at: text.test.offset).matchesFolding(bytes, text.test.op)
            }
        }

        /// The needle of an ASCII `CONTAINS[c]` test, in the pool.
        @inline(__always)
        private func needle(of test: FieldTest) -> ASCIIFolding.EncodedNeedle {
            ASCIIFolding.EncodedNeedle(
                constants.bytes(at: Int(test.asciiNeedleOffset), count: Int(test.asciiNeedleCount)))
        }
    }

    /// A program's one `CONTAINS[c]` test and the search it runs (see ``Runner/soleContains``).
    struct ContainsScan {
        let test: FieldTest
        let search: ASCIIFolding.BlockSearch
    }
}

/// A program's constants: the pool of bytes and numbers, folded text and decimals.
struct ProgramConstants {
    let pool: UnsafeRawPointer
    let texts: UnsafeBufferPointer<TextConstant>
    let decimals: UnsafeBufferPointer<[Decimal]>

    @inline(__always)
    func bytes(at offset: Int, count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: pool + offset, count: count)
    }

    /// Entry `index` of a table of byte constants (pairs of `UInt32` offset and count).
    @inline(__always)
    func byteTableEntry(at table: Int, _ index: Int) -> UnsafeRawBufferPointer {
        let entry = table + 8 * index
        let offset = Int(pool.loadUnaligned(fromByteOffset: entry, as: UInt32.self))
        let count = Int(pool.loadUnaligned(fromByteOffset: entry + 4, as: UInt32.self))
        return bytes(at: offset, count: count)
    }

    /// Whether a table of byte constants sorted bytewise holds `value`.
    @inline(__always)
    func byteTable(at table: Int, count: Int, contains value: UnsafeRawBufferPointer) -> Bool {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            let order = ByteOrder.compare(byteTableEntry(at: table, middle), value)
            if order == 0 { return true }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return false
    }

    /// Whether sorted integers in the pool hold `value`.
    @inline(__always)
    func sortedIntegers(at offset: Int, count: Int, contain value: Int64) -> Bool {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            let element = pool.loadUnaligned(fromByteOffset: offset + 8 * middle, as: Int64.self)
            if element == value { return true }
            if element < value { low = middle + 1 } else { high = middle }
        }
        return false
    }

    /// Whether doubles in the pool hold `value` (NaN equals nothing).
    @inline(__always)
    func doubles(at offset: Int, count: Int, contain value: Double) -> Bool {
        for index in 0..<count where pool.loadUnaligned(fromByteOffset: offset + 8 * index, as: Double.self) == value {
            return true
        }
        return false
    }

    func text(at index: Int) -> TextConstant { texts[index] }

    func decimals(at index: Int) -> [Decimal] { decimals[index] }
}

/// Builds a ``FilterProgram``: instructions, tests and the constant pool.
struct ProgramBuilder {
    var code: [FilterProgram.Instruction] = []
    var tests: [FieldTest] = []
    var pool: [UInt8] = []
    var nested: [NestedTest] = []
    var texts: [TextConstant] = []
    var decimals: [[Decimal]] = []

    func finish() -> FilterProgram {
        FilterProgram(code: code, tests: tests, pool: pool, nested: nested, texts: texts, decimals: decimals)
    }

    /// Appends an instruction; returns its position.
    @discardableResult
    mutating func emit(_ opcode: FilterProgram.Instruction.Opcode, flag: Bool = false, index: Int = 0) -> Int {
        code.append(FilterProgram.Instruction(opcode: opcode, flag: flag, index: Int32(index)))
        return code.count - 1
    }

    /// Points the jump at `position` to the next instruction.
    mutating func patchJump(at position: Int) {
        code[position].index = Int32(code.count)
    }

    mutating func emitTest(_ test: FieldTest) {
        var test = test
        let opcode: FilterProgram.Instruction.Opcode
        switch (test.kind, test.op) {
        case (.integer, .equal), (.integer, .notEqual), (.integer, .less), (.integer, .lessOrEqual),
            (.integer, .greater), (.integer, .greaterOrEqual):
            opcode = .integerTest
            test.kind = .encodedInteger
            var encoded: [UInt8] = []
            FieldReads.appendInteger(test.integer, to: &encoded)
            test.integer = Int64(addBytes(encoded))
            test.integer2 = Int64(encoded.count)
        case (.bytes, .equal), (.bytes, .notEqual): opcode = .bytesEqualityTest
        case (.folded, .contains):
            if texts.indices.contains(test.offset), let needle = texts[test.offset].asciiNeedle?.encoded {
                opcode = .asciiContainsTest
                test.asciiNeedleOffset = Int32(addBytes(needle))
                test.asciiNeedleCount = Int32(needle.count)
            } else {
                opcode = .test
            }
        default: opcode = .test
        }
        tests.append(test)
        emit(opcode, index: tests.count - 1)
    }

    mutating func emitNested(_ test: NestedTest) {
        nested.append(test)
        emit(.nested, index: nested.count - 1)
    }

    /// Adds a test that nested tests apply to values; returns its index.
    mutating func addTest(_ test: FieldTest) -> Int {
        tests.append(test)
        return tests.count - 1
    }

    private mutating func align() {
        while pool.count % 8 != 0 { pool.append(0) }
    }

    /// Adds bytes to the pool; returns their offset.
    mutating func addBytes(_ bytes: [UInt8]) -> Int {
        let offset = pool.count
        pool += bytes
        return offset
    }

    /// Adds a table of byte constants, sorted bytewise and without repeats when `sorted`; returns
    /// its offset and length.
    mutating func addByteTable(_ constants: [[UInt8]], sorted: Bool) -> (offset: Int, count: Int) {
        let ordered = sorted ? Array(Set(constants)).sorted { $0.lexicographicallyPrecedes($1) } : constants
        let offsets = ordered.map { addBytes($0) }
        align()
        let table = pool.count
        for (constant, offset) in zip(ordered, offsets) {
            withUnsafeBytes(of: UInt32(offset).littleEndian) { pool += $0 }
            withUnsafeBytes(of: UInt32(constant.count).littleEndian) { pool += $0 }
        }
        return (table, ordered.count)
    }

    /// Adds integers, sorted and without repeats; returns their offset and count.
    mutating func addSortedIntegers(_ values: [Int64]) -> (offset: Int, count: Int) {
        let sorted = Array(Set(values)).sorted()
        align()
        let offset = pool.count
        for value in sorted { withUnsafeBytes(of: value) { pool += $0 } }
        return (offset, sorted.count)
    }

    /// Adds doubles; returns their offset.
    mutating func addDoubles(_ values: [Double]) -> Int {
        align()
        let offset = pool.count
        for value in values { withUnsafeBytes(of: value) { pool += $0 } }
        return offset
    }

    mutating func addText(_ text: TextConstant) -> Int {
        texts.append(text)
        return texts.count - 1
    }

    mutating func addDecimals(_ values: [Decimal]) -> Int {
        decimals.append(values)
        return decimals.count - 1
    }
}
