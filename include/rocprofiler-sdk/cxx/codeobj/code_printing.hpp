// Instructions of loaded AMDGPU code objects by address, with their source
// lines (rocprofiler::sdk::codeobj::disassembly), with the interface
// rocprofiler-sdk 1.0.0 declares in
// <rocprofiler-sdk/cxx/codeobj/code_printing.hpp>: what a tool uses to turn
// a code object's load record and a GPU address (a PC sample, a thread-trace
// wave) into the instruction, its kernel and its source line.
// Header-only, C++17. Needs comgr (disassembly.hpp) and elfutils' libdw for
// the DWARF line table (<elfutils/libdw.h>, Debian's libdw-dev); a program
// using it links -lamd_comgr -ldw.
//
// Errors: constructing a decoder throws what disassembly.hpp documents for a
// code object that is null, empty, not accepted by comgr or not readable
// (also std::runtime_error for a null file path). A look-up of an address
// where no instruction is returns nullptr, except
// CodeobjAddressTranslate::get(vaddr) for an address outside every code
// object added, which throws std::out_of_range.
#ifndef ROCPROFILER_SDK_CXX_CODEOBJ_CODE_PRINTING_HPP_
#define ROCPROFILER_SDK_CXX_CODEOBJ_CODE_PRINTING_HPP_

#include <elfutils/libdw.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <rocprofiler-sdk/cxx/codeobj/disassembly.hpp>
#include <rocprofiler-sdk/cxx/codeobj/segment.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rocprofiler {
namespace sdk {
namespace codeobj {
namespace disassembly {

using marker_id_t = segment::marker_id_t;

// One decoded instruction: its text, "FILE:LINE" of its source (several
// separated by spaces where the line table gives more than one, "" without
// debug information), its file offset, its address in the code object, its
// size in bytes and, when it was found through a loaded code object, its
// load address and that object's ID.
struct Instruction {
  Instruction() = default;
  Instruction(std::string&& _inst, size_t _size)
      : inst(std::move(_inst)), size(_size) {}

  std::string inst{};
  std::string comment{};
  uint64_t faddr{0};
  uint64_t vaddr{0};
  size_t size{0};
  uint64_t ld_addr{0};
  marker_id_t codeobj_id{0};
};

namespace detail {

// An anonymous file holding a copy of a code object: libdw reads DWARF from
// a file descriptor.
class AnonymousFile {
 public:
  AnonymousFile(const char* data, uint64_t size) {
#if defined(MFD_CLOEXEC)
    fd_ = ::memfd_create("rocprofiler-sdk-codeobj", MFD_CLOEXEC);
#endif
#if defined(O_TMPFILE)
    if (fd_ < 0) fd_ = ::open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
    if (fd_ < 0) {
      throw std::runtime_error("could not create a file for a code object");
    }
    uint64_t written = 0;
    while (written < size) {
      ssize_t n = ::write(fd_, data + written, size - written);
      if (n <= 0) {
        ::close(fd_);
        throw std::runtime_error("could not write a code object to a file");
      }
      written += static_cast<uint64_t>(n);
    }
  }
  ~AnonymousFile() { ::close(fd_); }
  AnonymousFile(const AnonymousFile&) = delete;
  AnonymousFile& operator=(const AnonymousFile&) = delete;

  int fd() const { return fd_; }

 private:
  int fd_ = -1;
};

// The code object's DWARF line table as address ranges: each row's address
// up to the next row's (or its sequence's end) maps to "FILE:LINE" of every
// row at that address. Empty without debug information.
inline std::map<segment::address_range_t, std::string> read_line_table(
    const char* data, uint64_t size) {
  std::map<segment::address_range_t, std::string> ranges;
  AnonymousFile file(data, size);
  std::unique_ptr<Dwarf, int (*)(Dwarf*)> owner(
      dwarf_begin(file.fd(), DWARF_C_READ), &dwarf_end);
  Dwarf* dwarf = owner.get();
  if (dwarf == nullptr) return ranges;

  // Row address -> the locations of the rows there (none where a sequence
  // only ends).
  std::map<uint64_t, std::vector<std::string>> rows;
  Dwarf_Off offset = 0;
  Dwarf_Off next = 0;
  size_t header_size = 0;
  while (dwarf_nextcu(dwarf, offset, &next, &header_size, nullptr, nullptr,
                      nullptr) == 0) {
    Dwarf_Die unit;
    Dwarf_Lines* lines = nullptr;
    size_t count = 0;
    if (dwarf_offdie(dwarf, offset + header_size, &unit) != nullptr &&
        dwarf_getsrclines(&unit, &lines, &count) == 0) {
      for (size_t i = 0; i < count; ++i) {
        Dwarf_Line* line = dwarf_onesrcline(lines, i);
        Dwarf_Addr address = 0;
        int number = 0;
        bool end_sequence = false;
        if (line == nullptr || dwarf_lineaddr(line, &address) != 0 ||
            dwarf_lineendsequence(line, &end_sequence) != 0) {
          continue;
        }
        if (end_sequence) {
          rows[address];  // only ends the previous row's range
          continue;
        }
        // A row of line 0 (code of no source line) does not end the
        // previous row's range, as llvm-objdump --line-numbers reads it.
        const char* source = dwarf_linesrc(line, nullptr, nullptr);
        if (dwarf_lineno(line, &number) != 0 || number == 0 ||
            source == nullptr) {
          continue;
        }
        auto& locations = rows[address];
        std::string location =
            std::string(source) + ':' + std::to_string(number);
        if (std::find(locations.begin(), locations.end(), location) ==
            locations.end()) {
          locations.push_back(std::move(location));
        }
      }
    }
    offset = next;
  }

  for (auto it = rows.begin(); it != rows.end(); ++it) {
    if (it->second.empty()) continue;
    auto following = std::next(it);
    uint64_t end = following == rows.end() ? it->first + 1 : following->first;
    std::string joined;
    for (const auto& location : it->second) {
      if (!joined.empty()) joined += ' ';
      joined += location;
    }
    ranges.emplace(segment::address_range_t{it->first, end - it->first, 0},
                   std::move(joined));
  }
  return ranges;
}

}  // namespace detail

// One code object, decoded: its function symbols, its instructions by file
// offset and its source lines by virtual address.
class CodeobjDecoderComponent {
 public:
  CodeobjDecoderComponent(const char* codeobj_data, uint64_t codeobj_size) {
    // Rejects what is no code object before libdw reads it.
    disassembly =
        std::make_unique<DisassemblyInstance>(codeobj_data, codeobj_size);
    m_line_number_map = detail::read_line_table(codeobj_data, codeobj_size);
    try {
      m_symbol_map = disassembly->GetKernelMap();
    } catch (const std::exception&) {
      // A code object whose symbols comgr cannot list still disassembles.
    }
  }
  ~CodeobjDecoderComponent() = default;

  // The file offset of code-object address `vaddr`, or nothing.
  std::optional<uint64_t> va2fo(uint64_t vaddr) const {
    if (!disassembly) return std::nullopt;
    return disassembly->va2fo(vaddr);
  }

  // The instruction at file offset `faddr`, which is at address `vaddr`
  // (its source line is looked up by `vaddr`). std::out_of_range when
  // `faddr` is outside the code object.
  std::unique_ptr<Instruction> disassemble_instruction(uint64_t faddr,
                                                       uint64_t vaddr) {
    if (!disassembly) throw std::runtime_error("no code object");
    auto decoded = disassembly->ReadInstruction(faddr);
    auto instruction =
        std::make_unique<Instruction>(std::move(decoded.first), decoded.second);
    instruction->faddr = faddr;
    instruction->vaddr = vaddr;
    auto line = m_line_number_map.find(segment::address_range_t{vaddr, 0, 0});
    if (line != m_line_number_map.end()) instruction->comment = line->second;
    return instruction;
  }

  std::map<uint64_t, SymbolInfo> m_symbol_map{};
  std::vector<std::shared_ptr<Instruction>> instructions{};
  std::unique_ptr<DisassemblyInstance> disassembly{};
  std::map<segment::address_range_t, std::string> m_line_number_map{};
};

// A code object loaded at `load_addr` (the loader's load delta) and
// occupying `memsize` bytes from there: instructions by load address.
class LoadedCodeobjDecoder {
 public:
  // `filepath`: a code-object URI ("file://...#offset=...&size=...", see
  // CodeObjectBinary) or a plain path of a code-object file.
  LoadedCodeobjDecoder(const char* filepath, uint64_t _load_addr,
                       uint64_t _memsize)
      : load_addr(_load_addr), load_end(_load_addr + _memsize) {
    if (filepath == nullptr) throw std::runtime_error("Empty filepath.");
    std::vector<char> bytes;
    if (std::string_view(filepath).find("://") != std::string_view::npos) {
      bytes = std::move(CodeObjectBinary(filepath).buffer);
    } else {
      std::ifstream file(filepath, std::ios::in | std::ios::binary);
      if (!file.is_open()) {
        throw std::runtime_error("Invalid file " + std::string(filepath));
      }
      bytes.assign(std::istreambuf_iterator<char>(file),
                   std::istreambuf_iterator<char>());
    }
    decoder =
        std::make_unique<CodeobjDecoderComponent>(bytes.data(), bytes.size());
  }
  // The code object's `size` bytes at `data` (copied).
  LoadedCodeobjDecoder(const void* data, uint64_t size, uint64_t _load_addr,
                       size_t _memsize)
      : load_addr(_load_addr), load_end(_load_addr + _memsize) {
    decoder = std::make_unique<CodeobjDecoderComponent>(
        static_cast<const char*>(data), size);
  }

  // The instruction at load address `ld_addr`; nullptr where the code
  // object has no instruction bytes.
  std::unique_ptr<Instruction> get(uint64_t ld_addr) {
    if (!decoder || ld_addr < load_addr) return nullptr;
    uint64_t vaddr = ld_addr - load_addr;
    std::optional<uint64_t> faddr = decoder->va2fo(vaddr);
    if (!faddr) return nullptr;
    auto instruction = decoder->disassemble_instruction(*faddr, vaddr);
    if (!instruction || instruction->size == 0) return nullptr;
    instruction->ld_addr = ld_addr;
    return instruction;
  }

  uint64_t begin() const { return load_addr; }
  uint64_t end() const { return load_end; }
  uint64_t size() const { return load_end - load_addr; }
  bool inrange(uint64_t addr) const { return addr >= begin() && addr < end(); }

  // The name of the function starting at load address `addr`, or nullptr.
  const char* getSymbolName(uint64_t addr) const {
    if (!decoder || addr < load_addr) return nullptr;
    auto found = decoder->m_symbol_map.find(addr - load_addr);
    if (found == decoder->m_symbol_map.end()) return nullptr;
    return found->second.name.c_str();
  }

  // Function symbols by code-object address (add begin() for the load
  // address).
  std::map<uint64_t, SymbolInfo>& getSymbolMap() const {
    if (!decoder) throw std::runtime_error("no code object");
    return decoder->m_symbol_map;
  }

  const uint64_t load_addr;

 private:
  uint64_t load_end{0};
  std::unique_ptr<CodeobjDecoderComponent> decoder{nullptr};
};

// Loaded code objects by ID: instructions by (ID, offset from the load
// address).
class CodeobjMap {
 public:
  CodeobjMap() = default;
  virtual ~CodeobjMap() = default;

  // Adds (or replaces) code object `id` from a URI or path.
  virtual void addDecoder(const char* filepath, marker_id_t id,
                          uint64_t load_addr, uint64_t memsize) {
    decoders[id] =
        std::make_shared<LoadedCodeobjDecoder>(filepath, load_addr, memsize);
  }
  // Adds (or replaces) code object `id` from its bytes in memory.
  virtual void addDecoder(const void* data, size_t memory_size, marker_id_t id,
                          uint64_t load_addr, uint64_t memsize) {
    decoders[id] = std::make_shared<LoadedCodeobjDecoder>(data, memory_size,
                                                          load_addr, memsize);
  }

  virtual bool removeDecoderbyId(marker_id_t id) {
    return decoders.erase(id) != 0;
  }

  // The instruction `offset` bytes past code object `id`'s load address;
  // nullptr for an unknown ID or where there is no instruction.
  std::unique_ptr<Instruction> get(marker_id_t id, uint64_t offset) {
    auto found = decoders.find(id);
    if (found == decoders.end()) return nullptr;
    auto instruction = found->second->get(found->second->begin() + offset);
    if (instruction) instruction->codeobj_id = id;
    return instruction;
  }

  // The name of the function starting `offset` bytes past code object
  // `id`'s load address, or nullptr.
  const char* getSymbolName(marker_id_t id, uint64_t offset) {
    auto found = decoders.find(id);
    if (found == decoders.end()) return nullptr;
    uint64_t addr = found->second->begin() + offset;
    if (!found->second->inrange(addr)) return nullptr;
    return found->second->getSymbolName(addr);
  }

 protected:
  std::unordered_map<marker_id_t, std::shared_ptr<LoadedCodeobjDecoder>>
      decoders{};
};

// Loaded code objects by address range: instructions and symbols by
// absolute (load) address.
class CodeobjAddressTranslate : public CodeobjMap {
  using Super = CodeobjMap;

 public:
  CodeobjAddressTranslate() = default;
  ~CodeobjAddressTranslate() override = default;

  void addDecoder(const char* filepath, marker_id_t id, uint64_t load_addr,
                  uint64_t memsize) override {
    Super::addDecoder(filepath, id, load_addr, memsize);
    add_range(id);
  }
  void addDecoder(const void* data, size_t memory_size, marker_id_t id,
                  uint64_t load_addr, uint64_t memsize) override {
    Super::addDecoder(data, memory_size, id, load_addr, memsize);
    add_range(id);
  }

  // Removes code object `id`, loaded at `load_addr`; false when either is
  // unknown.
  bool removeDecoder(marker_id_t id, uint64_t load_addr) {
    return table.remove(load_addr) && Super::removeDecoderbyId(id);
  }
  bool removeDecoder(marker_id_t id) {
    auto found = decoders.find(id);
    if (found == decoders.end()) return false;
    return removeDecoder(id, found->second->begin());
  }

  // The instruction at load address `vaddr`. std::out_of_range when no code
  // object added covers it; nullptr where its code object has no
  // instruction there.
  std::unique_ptr<Instruction> get(uint64_t vaddr) {
    segment::address_range_t range = table.find_codeobj_in_range(vaddr);
    return Super::get(range.id, vaddr - range.addr);
  }
  // With `id` 0, `offset` is a load address (get(offset)); otherwise as
  // CodeobjMap::get.
  std::unique_ptr<Instruction> get(marker_id_t id, uint64_t offset) {
    if (id == 0) return get(offset);
    return Super::get(id, offset);
  }

  // The name of the function starting at load address `vaddr`, or nullptr.
  const char* getSymbolName(uint64_t vaddr) {
    for (auto& entry : decoders) {
      if (entry.second->inrange(vaddr)) {
        return entry.second->getSymbolName(vaddr);
      }
    }
    return nullptr;
  }

  // Every code object's function symbols, by load address.
  std::map<uint64_t, SymbolInfo> getSymbolMap() const {
    std::map<uint64_t, SymbolInfo> symbols;
    for (const auto& entry : decoders) {
      for (const auto& symbol : entry.second->getSymbolMap()) {
        symbols[symbol.first + entry.second->load_addr] = symbol.second;
      }
    }
    return symbols;
  }
  // Code object `id`'s function symbols by code-object address; empty for
  // an unknown ID.
  std::map<uint64_t, SymbolInfo> getSymbolMap(marker_id_t id) const {
    auto found = decoders.find(id);
    if (found == decoders.end()) return {};
    return found->second->getSymbolMap();
  }

 private:
  void add_range(marker_id_t id) {
    const auto& decoder = decoders.at(id);
    table.insert(
        segment::address_range_t{decoder->begin(), decoder->size(), id});
  }

  segment::CodeobjTableTranslator table{};
};

}  // namespace disassembly
}  // namespace codeobj
}  // namespace sdk
}  // namespace rocprofiler

#endif  // ROCPROFILER_SDK_CXX_CODEOBJ_CODE_PRINTING_HPP_
