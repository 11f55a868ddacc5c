#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An ELF file of the running process, read for operator sites: its function
/// symbols (which function, and so which module, an address is in) and its
/// ``DWARFLineTable`` (which line).
///
/// The file is mapped read-only while the image exists, which is for the life of
/// the process once the cache in ``OperatorSites`` holds it (it never lets go):
/// symbol names are read from the mapping when asked, not copied. Everything is read from the
/// file, never from the image's memory, so an image unloaded or a file unmapped
/// by another thread meanwhile cannot crash the process (the `Runtime` module's
/// image map read mapped memory, and crashed when another thread unmapped a
/// file it had listed).
final class ELFImage: @unchecked Sendable {
    /// A function symbol: `[address, address + size)` in the file's addresses.
    struct Function {
        let address: UInt64
        let size: UInt64
        /// The offset of its name in `names`.
        let name: UInt32
    }

    /// The whole file, mapped read-only; unmapped by `deinit`.
    private let file: UnsafeRawBufferPointer
    /// Sorted by address. Read-only after `init`, as everything here.
    private let functions: [Function]
    private let names: UnsafeRawBufferPointer?
    let lineTable: DWARFLineTable?

    /// The file at `path`; `nil` if it cannot be read as an ELF64 image.
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 64 else { return nil }
        let size = Int(status.st_size)
        guard let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapping != MAP_FAILED else {
            return nil
        }
        let file = UnsafeRawBufferPointer(start: mapping, count: size)
        guard let sections = ELFSections(file) else {
            munmap(mapping, size)
            return nil
        }
        // The full symbol table where the file has one (a binary that is not
        // stripped), else the dynamic one (exported symbols only).
        let (symbols, names) = sections.symbols.map { ($0, sections.symbolNames) }
            ?? (sections.dynamicSymbols, sections.dynamicSymbolNames)
        self.file = file
        self.functions = symbols.map(Self.functions(in:)) ?? []
        self.names = names
        self.lineTable = DWARFLineTable(sections)
    }

    /// Only an image that lost the race to the cache (two threads read the same
    /// file at once) is ever deallocated.
    deinit {
        munmap(UnsafeMutableRawPointer(mutating: file.baseAddress), file.count)
    }

    private static func functions(in table: UnsafeRawBufferPointer) -> [Function] {
        let entrySize = 24  // Elf64_Sym
        var functions: [Function] = []
        var reader = ByteReader(table)
        for index in 0..<(table.count / entrySize) {
            reader.offset = index * entrySize
            guard let name = reader.u32(), let info = reader.u8(), reader.u8() != nil,
                  let sectionIndex = reader.u16(), let address = reader.u64(), let size = reader.u64()
            else { break }
            // STT_FUNC, defined in this file, with an extent.
            guard info & 0xf == 2, sectionIndex != 0, size > 0 else { continue }
            functions.append(Function(address: address, size: size, name: name))
        }
        functions = functions.sorted(byKey: { $0.address })
        return functions
    }

    /// The (mangled) name of the function containing `address`, an address in
    /// the file's terms; `nil` if no symbol covers it.
    func functionName(containing address: UInt64) -> String? {
        var low = 0
        var high = functions.count
        while low < high {
            let middle = (low + high) / 2
            if functions[middle].address <= address {
                low = middle + 1
            } else {
                high = middle
            }
        }
        guard low > 0, let names else { return nil }
        let function = functions[low - 1]
        guard address - function.address < function.size, Int(function.name) < names.count else { return nil }
        var reader = ByteReader(names)
        reader.offset = Int(function.name)
        return reader.cString()
    }
}
#endif
