#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The line table of an ELF image's DWARF debugging information (`.debug_line`,
/// DWARF 2 to 5): which source file and line an instruction address was compiled
/// from.
///
/// Why Ripple reads it itself: the `Runtime` module's symbolication runs the
/// line-number programs anew for every frame it resolves, about 100 ms per frame
/// in a 46 MB test binary (measured 2026-11-28), so a graph of a few hundred
/// operators took minutes. This table is built once per image, the first time a
/// site is shown (every row of every line program, sorted by address), and
/// answers each address with a binary search.
///
/// Only what a site needs is read: the file's path and the line. An image whose sections cannot be read (not ELF64 little-endian,
/// compressed debugging sections, string forms that need `.debug_str_offsets`)
/// gives no lines for the units concerned, never a crash: every read is bounds
/// checked and a malformed unit ends the parse of that unit.
struct DWARFLineTable {
    struct Row {
        let address: UInt64
        let file: UInt32
        let line: UInt32
        /// The first address after a sequence: no line from here on.
        let isEnd: Bool
    }

    private(set) var rows: [Row] = []
    private(set) var files: [String] = []

    /// The file (its path as the compiler recorded it) and line `address`
    /// (relative to the image's load address, as in the ELF file) was compiled
    /// from.
    func location(of address: UInt64) -> (file: String, line: Int)? {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle].address <= address {
                low = middle + 1
            } else {
                high = middle
            }
        }
        guard low > 0 else { return nil }
        let row = rows[low - 1]
        guard !row.isEnd, row.line > 0, Int(row.file) < files.count else { return nil }
        return (files[Int(row.file)], Int(row.line))
    }

    /// The table of an ELF image's sections; `nil` if it has no line table.
    init?(_ sections: ELFSections) {
        guard let lines = sections.lines else { return nil }
        let context = DWARFStrings(lineStrings: sections.lineStrings, strings: sections.strings)
        var reader = ByteReader(lines)
        while !reader.isAtEnd {
            guard let unitEnd = parseUnit(&reader, context) else { break }
            reader.offset = unitEnd
        }
        // Rows at the same address: the end of a sequence first, so that a
        // sequence starting where another ended wins the search.
        // (The key is the address and that bit; no address reaches 2^63.)
        rows = rows.sorted(byKey: { $0.address << 1 | ($0.isEnd ? 0 : 1) })
    }

    /// Parses one line-number program and adds its rows; returns the offset of
    /// the next unit, or `nil` when the section cannot be read further.
    private mutating func parseUnit(_ reader: inout ByteReader, _ strings: DWARFStrings) -> Int? {
        guard let length = reader.u32() else { return nil }
        if length == 0xffff_ffff {
            // 64-bit DWARF.
            guard let long = reader.u64(), long < UInt64(Int.max / 2) else { return nil }
            return parseUnitBody(&reader, strings, end: reader.offset + Int(long), offsetSize: 8)
        }
        guard length < 0xffff_fff0 else { return nil }
        return parseUnitBody(&reader, strings, end: reader.offset + Int(length), offsetSize: 4)
    }

    private mutating func parseUnitBody(
        _ reader: inout ByteReader, _ strings: DWARFStrings, end: Int, offsetSize: Int
    ) -> Int? {
        guard end <= reader.count else { return nil }
        var unit = reader
        unit.count = end
        guard let version = unit.u16(), (2...5).contains(version) else { return end }
        var addressSize = 8
        if version >= 5 {
            guard let size = unit.u8(), unit.u8() != nil else { return end }
            addressSize = Int(size)
        }
        guard let headerLength = offsetSize == 8 ? unit.u64() : unit.u32().map(UInt64.init),
              headerLength < UInt64(Int.max) else { return end }
        let programStart = unit.offset + Int(headerLength)
        guard programStart <= end,
              let minimumInstructionLength = unit.u8(),
              version < 4 || unit.u8() != nil,
              let defaultIsStatement = unit.u8(),
              let lineBaseByte = unit.u8(),
              let lineRange = unit.u8(), lineRange > 0,
              let opcodeBase = unit.u8(), opcodeBase > 0
        else { return end }
        _ = defaultIsStatement
        let lineBase = Int(Int8(bitPattern: lineBaseByte))
        var argumentCounts: [Int] = [0]
        for _ in 1..<Int(opcodeBase) {
            guard let count = unit.u8() else { return end }
            argumentCounts.append(Int(count))
        }
        // The unit's files, as indexes into `files`: 1-based before DWARF 5
        // (file 0 is unused), 0-based from 5 on.
        var unitFiles: [UInt32] = []
        var directories: [String] = []
        if version >= 5 {
            guard let directoryPaths = readEntries(&unit, strings, offsetSize: offsetSize),
                  let names = readEntries(&unit, strings, offsetSize: offsetSize) else { return end }
            directories = directoryPaths.map(\.path)
            unitFiles = names.map { addFile($0.path, in: $0.directory, of: directories) }
        } else {
            unitFiles.append(UInt32.max)
            directories.append("")
            while let directory = unit.cString(), !directory.isEmpty {
                directories.append(directory)
            }
            while let name = unit.cString(), !name.isEmpty {
                guard let directory = unit.uleb(), unit.uleb() != nil, unit.uleb() != nil else { return end }
                unitFiles.append(addFile(name, in: directory, of: directories))
            }
        }
        unit.offset = programStart
        runProgram(
            &unit, version: version, addressSize: addressSize, unitFiles: &unitFiles, directories: directories,
            minimumInstructionLength: UInt64(minimumInstructionLength), lineBase: lineBase,
            lineRange: Int(lineRange), opcodeBase: Int(opcodeBase), argumentCounts: argumentCounts
        )
        return end
    }

    /// Adds a file of a unit: `path`, under directory `directory` of the unit
    /// when it is relative.
    private mutating func addFile(_ path: String, in directory: UInt64, of directories: [String]) -> UInt32 {
        if !path.hasPrefix("/"), directory < UInt64(directories.count), !directories[Int(directory)].isEmpty {
            files.append(directories[Int(directory)] + "/" + path)
        } else {
            files.append(path)
        }
        return UInt32(files.count - 1)
    }

    // swiftlint:disable:next function_parameter_count
    private mutating func runProgram(
        _ unit: inout ByteReader, version: UInt16, addressSize: Int, unitFiles: inout [UInt32], directories: [String],
        minimumInstructionLength: UInt64, lineBase: Int, lineRange: Int, opcodeBase: Int, argumentCounts: [Int]
    ) {
        let firstFile = version >= 5 ? 0 : 1
        var address: UInt64 = 0
        var file = firstFile
        var line = 1
        func emit(isEnd: Bool) {
            let fileIndex = file < unitFiles.count ? unitFiles[file] : UInt32.max
            rows.append(Row(address: address, file: fileIndex, line: UInt32(clamping: max(0, line)), isEnd: isEnd))
        }
        while !unit.isAtEnd {
            guard let opcode = unit.u8() else { return }
            if Int(opcode) >= opcodeBase {
                let adjusted = Int(opcode) - opcodeBase
                address &+= UInt64(adjusted / lineRange) &* minimumInstructionLength
                line += lineBase + adjusted % lineRange
                emit(isEnd: false)
                continue
            }
            switch opcode {
            case 0:
                guard let length = unit.uleb(), length > 0, length < UInt64(unit.count),
                      let subOpcode = unit.u8() else { return }
                let next = unit.offset + Int(length) - 1
                switch subOpcode {
                case 1:
                    emit(isEnd: true)
                    address = 0
                    file = firstFile
                    line = 1
                case 2:
                    guard let value = unit.unsigned(byteCount: min(addressSize, Int(length) - 1)) else { return }
                    address = value
                case 3:
                    if let name = unit.cString(), let directory = unit.uleb() {
                        unitFiles.append(addFile(name, in: directory, of: directories))
                    }
                default:
                    break
                }
                unit.offset = next
            case 1:
                emit(isEnd: false)
            case 2:
                guard let advance = unit.uleb() else { return }
                address &+= advance &* minimumInstructionLength
            case 3:
                guard let advance = unit.sleb() else { return }
                line += Int(truncatingIfNeeded: advance)
            case 4:
                guard let index = unit.uleb(), index < UInt64(Int.max) else { return }
                file = Int(index)
            case 8:
                address &+= UInt64((255 - opcodeBase) / lineRange) &* minimumInstructionLength
            case 9:
                guard let advance = unit.u16() else { return }
                address &+= UInt64(advance)
            default:
                let count = Int(opcode) < argumentCounts.count ? argumentCounts[Int(opcode)] : 0
                for _ in 0..<count {
                    guard unit.uleb() != nil else { return }
                }
            }
        }
    }

    /// Reads a DWARF 5 entry table (directories or files) and returns the path
    /// and directory index of each entry; `nil` when a form cannot be read.
    private func readEntries(
        _ unit: inout ByteReader, _ strings: DWARFStrings, offsetSize: Int
    ) -> [(path: String, directory: UInt64)]? {
        guard let formatCount = unit.u8() else { return nil }
        var format: [(content: UInt64, form: UInt64)] = []
        for _ in 0..<formatCount {
            guard let content = unit.uleb(), let form = unit.uleb() else { return nil }
            format.append((content, form))
        }
        guard let count = unit.uleb(), count < UInt64(unit.count) else { return nil }
        var entries: [(path: String, directory: UInt64)] = []
        for _ in 0..<count {
            var path = ""
            var directory: UInt64 = 0
            for (content, form) in format {
                guard let value = unit.formValue(form, offsetSize: offsetSize, strings: strings) else { return nil }
                switch (content, value) {
                case (1, .text(let text)):  // DW_LNCT_path
                    path = text
                case (2, .number(let number)):  // DW_LNCT_directory_index
                    directory = number
                default:
                    break
                }
            }
            entries.append((path, directory))
        }
        return entries
    }
}

/// The string sections a DWARF 5 line table refers to.
struct DWARFStrings {
    let lineStrings: UnsafeRawBufferPointer?
    let strings: UnsafeRawBufferPointer?
}

/// The sections of an ELF64 little-endian image that symbolication reads: the
/// line table and its strings, and the symbol tables. (Seven fields rather than
/// a dictionary by name: every program links this code, and the dictionary and
/// a set of names were 1.5 KB of specialised code in each.)
struct ELFSections {
    /// `.debug_line`, `.debug_line_str`, `.debug_str`.
    private(set) var lines, lineStrings, strings: UnsafeRawBufferPointer?
    /// `.symtab` and `.strtab`: the full symbol table and its names.
    private(set) var symbols, symbolNames: UnsafeRawBufferPointer?
    /// `.dynsym` and `.dynstr`: the dynamic (exported) symbols and their names.
    private(set) var dynamicSymbols, dynamicSymbolNames: UnsafeRawBufferPointer?

    init?(_ image: UnsafeRawBufferPointer) {
        var header = ByteReader(image)
        guard header.u32() == 0x464c_457f, header.u8() == 2, header.u8() == 1 else { return nil }
        header.offset = 0x28
        guard let sectionTable = header.u64() else { return nil }
        header.offset = 0x3a
        guard let entrySize = header.u16(), entrySize >= 64, let count = header.u16(), let namesIndex = header.u16(),
              count > 0, namesIndex < count,
              sectionTable < UInt64(image.count),
              Int(sectionTable) + Int(count) * Int(entrySize) <= image.count
        else { return nil }
        func section(_ index: Int) -> (name: UInt32, flags: UInt64, offset: UInt64, size: UInt64)? {
            var reader = ByteReader(image)
            reader.offset = Int(sectionTable) + index * Int(entrySize)
            guard let name = reader.u32(), reader.u32() != nil, let flags = reader.u64(), reader.u64() != nil,
                  let offset = reader.u64(), let size = reader.u64() else { return nil }
            return (name, flags, offset, size)
        }
        guard let names = section(Int(namesIndex)), names.offset < UInt64(image.count),
              names.size <= UInt64(image.count) - names.offset else { return nil }
        let nameTable = UnsafeRawBufferPointer(rebasing: image[Int(names.offset)..<Int(names.offset + names.size)])
        for index in 0..<Int(count) {
            guard let entry = section(index), entry.flags & 0x800 == 0,  // SHF_COMPRESSED: not read
                  entry.offset < UInt64(image.count), entry.size <= UInt64(image.count) - entry.offset else { continue }
            var nameReader = ByteReader(nameTable)
            nameReader.offset = Int(entry.name)
            guard let name = nameReader.cString() else { continue }
            let contents = UnsafeRawBufferPointer(rebasing: image[Int(entry.offset)..<Int(entry.offset + entry.size)])
            switch name {
            case ".debug_line": lines = contents
            case ".debug_line_str": lineStrings = contents
            case ".debug_str": strings = contents
            case ".symtab": symbols = contents
            case ".strtab": symbolNames = contents
            case ".dynsym": dynamicSymbols = contents
            case ".dynstr": dynamicSymbolNames = contents
            default: continue
            }
        }
    }
}

/// Bounds-checked little-endian reads; every read returns `nil` past the end.
/// The variable-length reads are not inlined: the parser calls them from a few
/// dozen places, and inlined they made the parser the module's most expensive
/// code to optimise (`parseUnitBody` alone 0.3 s of the release build) for a
/// table read once per image.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0
    var count: Int

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        count = bytes.count
    }

    var isAtEnd: Bool { offset >= count }

    @inline(never)
    mutating func unsigned(byteCount: Int) -> UInt64? {
        guard byteCount >= 0, byteCount <= 8, offset >= 0, offset + byteCount <= count else { return nil }
        var value: UInt64 = 0
        for index in 0..<byteCount {
            value |= UInt64(bytes[offset + index]) << (8 * UInt64(index))
        }
        offset += byteCount
        return value
    }

    mutating func u8() -> UInt8? { unsigned(byteCount: 1).map { UInt8($0) } }
    mutating func u16() -> UInt16? { unsigned(byteCount: 2).map { UInt16($0) } }
    mutating func u32() -> UInt32? { unsigned(byteCount: 4).map { UInt32($0) } }
    mutating func u64() -> UInt64? { unsigned(byteCount: 8) }

    @inline(never)
    mutating func uleb() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard let byte = u8() else { return nil }
            if shift < 64 {
                result |= UInt64(byte & 0x7f) << shift
            }
            shift += 7
            if byte & 0x80 == 0 { return result }
        }
    }

    @inline(never)
    mutating func sleb() -> Int64? {
        var result: Int64 = 0
        var shift: Int64 = 0
        var byte: UInt8 = 0
        repeat {
            guard let next = u8() else { return nil }
            byte = next
            if shift < 64 {
                result |= Int64(byte & 0x7f) << shift
            }
            shift += 7
        } while byte & 0x80 != 0
        if shift < 64 && byte & 0x40 != 0 {
            result |= -(Int64(1) << shift)
        }
        return result
    }

    /// A nul-terminated string; `nil` if it runs past the end.
    @inline(never)
    mutating func cString() -> String? {
        guard offset >= 0, offset < count else { return nil }
        var end = offset
        while end < count && bytes[end] != 0 { end += 1 }
        guard end < count else { return nil }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
        offset = end + 1
        return text
    }

    /// The value of an attribute in a DWARF 5 entry table.
    enum FormValue {
        case text(String)
        case number(UInt64)
        case skipped
    }

    /// Reads an attribute of `form`; `nil` for a form that cannot be read here
    /// (the `strx` forms need `.debug_str_offsets`) or past the end.
    @inline(never)
    mutating func formValue(_ form: UInt64, offsetSize: Int, strings: DWARFStrings) -> FormValue? {
        switch form {
        case 0x08:  // DW_FORM_string
            return cString().map(FormValue.text)
        case 0x1f, 0x0e:  // DW_FORM_line_strp, DW_FORM_strp
            guard let position = unsigned(byteCount: offsetSize) else { return nil }
            guard let section = form == 0x1f ? strings.lineStrings : strings.strings,
                  position < UInt64(section.count) else { return .skipped }
            var reader = ByteReader(section)
            reader.offset = Int(position)
            return reader.cString().map(FormValue.text) ?? .skipped
        case 0x0f:  // DW_FORM_udata
            return uleb().map(FormValue.number)
        case 0x0b, 0x05, 0x06, 0x07:  // DW_FORM_data1, data2, data4, data8
            let size = form == 0x0b ? 1 : form == 0x05 ? 2 : form == 0x06 ? 4 : 8
            return unsigned(byteCount: size).map(FormValue.number)
        case 0x1e:  // DW_FORM_data16 (an MD5)
            guard offset + 16 <= count else { return nil }
            offset += 16
            return .skipped
        case 0x09:  // DW_FORM_block
            guard let length = uleb(), length <= UInt64(count - offset) else { return nil }
            offset += Int(length)
            return .skipped
        default:
            return nil
        }
    }
}
#endif
