// Disassembly of AMDGPU code objects (rocprofiler::sdk::codeobj::disassembly)
// with AMD's code object manager (comgr), with the interface rocprofiler-sdk
// 1.0.0 declares in <rocprofiler-sdk/cxx/codeobj/disassembly.hpp>.
// Header-only, C++17. Needs comgr's header (<amd_comgr/amd_comgr.h> or, as
// Debian installs it, <amd_comgr.h>); a program using it links -lamd_comgr.
//
// Errors are exceptions (all derived from std::exception):
// std::invalid_argument for a null or empty code object,
// std::runtime_error for bytes comgr does not accept as a code object, for a
// code-object URI that cannot be read, and for any other failing comgr call,
// std::out_of_range for an offset outside the code object.
#ifndef ROCPROFILER_SDK_CXX_CODEOBJ_DISASSEMBLY_HPP_
#define ROCPROFILER_SDK_CXX_CODEOBJ_DISASSEMBLY_HPP_

#if defined(__has_include)
#if __has_include(<amd_comgr/amd_comgr.h>)
#include <amd_comgr/amd_comgr.h>
#else
#include <amd_comgr.h>
#endif
#if __has_include(<hsa/amd_hsa_elf.h>)
// The AMDGPU ELF definitions, which tools including this header may use.
#include <hsa/amd_hsa_elf.h>
#endif
#else
#include <amd_comgr.h>
#endif

// Not all of these are used here: 1.0.0's header includes them, and tools
// rely on them through it.
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rocprofiler {
namespace sdk {
namespace codeobj {
namespace disassembly {
namespace detail {

// "<what>: <comgr's status string> (<status>)".
inline std::string comgr_error(const char* what, amd_comgr_status_t status) {
  const char* reason = nullptr;
  if (amd_comgr_status_string(status, &reason) != AMD_COMGR_STATUS_SUCCESS ||
      reason == nullptr) {
    reason = "unknown status";
  }
  return std::string(what) + ": " + reason + " (" +
         std::to_string(static_cast<int>(status)) + ")";
}

}  // namespace detail
}  // namespace disassembly
}  // namespace codeobj
}  // namespace sdk
}  // namespace rocprofiler

// Evaluates a comgr call; a status other than success throws
// std::runtime_error naming the call and comgr's reason.
#ifndef THROW_COMGR
#define THROW_COMGR(call)                                                \
  do {                                                                   \
    amd_comgr_status_t rocprofiler_comgr_status_ = (call);               \
    if (rocprofiler_comgr_status_ != AMD_COMGR_STATUS_SUCCESS) {         \
      throw std::runtime_error(                                          \
          ::rocprofiler::sdk::codeobj::disassembly::detail::comgr_error( \
              #call, rocprofiler_comgr_status_));                        \
    }                                                                    \
  } while (0)
#endif

// Evaluates a comgr call inside a comgr callback; a status other than
// success returns AMD_COMGR_STATUS_ERROR from the callback.
#ifndef RETURN_COMGR
#define RETURN_COMGR(call)                    \
  do {                                        \
    if ((call) != AMD_COMGR_STATUS_SUCCESS) { \
      return AMD_COMGR_STATUS_ERROR;          \
    }                                         \
  } while (0)
#endif

namespace rocprofiler {
namespace sdk {
namespace codeobj {
namespace disassembly {

// The bytes of a code object named by a code-object URI, as the HSA loader
// reports them: "file://PATH" with an optional "#" or "?" followed by
// "offset=N" and "size=N" joined by "&" (decimal, or hexadecimal with 0x;
// PATH percent-encoded). Without a size the object runs to the end of the
// file; "size=0" reads nothing. "memory://" URIs (code objects the loader
// was given in memory) cannot be read back here: std::runtime_error, as
// for a file that cannot be opened or a range outside it.
class CodeObjectBinary {
 public:
  CodeObjectBinary(std::string _uri) : m_uri(std::move(_uri)) {
    static constexpr char kSeparator[] = "://";
    size_t scheme_end = m_uri.find(kSeparator);
    if (scheme_end == std::string::npos) {
      throw std::runtime_error("not a code object URI: " + m_uri);
    }
    std::string scheme = m_uri.substr(0, scheme_end);
    for (char& c : scheme) {
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    size_t path_begin = scheme_end + sizeof(kSeparator) - 1;
    size_t path_end = m_uri.find_first_of("#?", path_begin);
    std::string path = decode(m_uri.substr(
        path_begin, path_end == std::string::npos ? std::string::npos
                                                  : path_end - path_begin));

    uint64_t offset = 0;
    std::optional<uint64_t> size;
    if (path_end != std::string::npos) {
      size_t pos = path_end + 1;
      while (pos <= m_uri.size()) {
        size_t next = m_uri.find('&', pos);
        if (next == std::string::npos) next = m_uri.size();
        std::string param = m_uri.substr(pos, next - pos);
        size_t eq = param.find('=');
        if (eq != std::string::npos) {
          std::string key = param.substr(0, eq);
          if (key == "offset") offset = number(param.substr(eq + 1));
          if (key == "size") size = number(param.substr(eq + 1));
        }
        pos = next + 1;
      }
    }

    if (scheme != "file") {
      throw std::runtime_error(scheme +
                               " code object URIs are not supported: " + m_uri);
    }
    if (size && *size == 0) return;

    // A directory or a pipe opens, but its size is no file's.
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
      throw std::runtime_error("not a regular file: " + path);
    }
    std::ifstream file(path, std::ios::in | std::ios::binary);
    if (!file.is_open()) throw std::runtime_error("could not open " + path);
    file.seekg(0, std::ios::end);
    const std::streamoff end = file.tellg();
    if (end < 0) throw std::runtime_error("could not size " + path);
    auto file_size = static_cast<uint64_t>(end);
    if (offset > file_size || (size && *size > file_size - offset)) {
      throw std::runtime_error("code object range outside " + path + ": " +
                               m_uri);
    }
    buffer.resize(size ? *size : file_size - offset);
    file.seekg(static_cast<std::streamoff>(offset), std::ios::beg);
    file.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    if (static_cast<size_t>(file.gcount()) != buffer.size()) {
      throw std::runtime_error("could not read " + path);
    }
  }

  std::string m_uri;
  std::vector<char> buffer;

 private:
  static std::string decode(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '%' && i + 2 < text.size() &&
          std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
          std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
        out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else {
        out += text[i];
      }
    }
    return out;
  }

  static uint64_t number(const std::string& text) {
    try {
      size_t used = 0;
      uint64_t value = std::stoull(text, &used, 0);
      if (used == text.size()) return value;
    } catch (const std::logic_error&) {
    }
    throw std::runtime_error("not a number in a code object URI: " + text);
  }
};

// A function symbol of a code object: its name, the file offset and virtual
// address of its first byte, and its size in bytes.
struct SymbolInfo {
  std::string name{};
  uint64_t faddr = 0;
  uint64_t vaddr = 0;
  uint64_t mem_size = 0;
};

// One code object (an AMDGPU ELF executable, copied) and comgr's
// disassembler for its processor.
class DisassemblyInstance {
 public:
  DisassemblyInstance(const char* codeobj_data, uint64_t codeobj_size) {
    if (codeobj_data == nullptr || codeobj_size == 0) {
      throw std::invalid_argument("no code object (null or empty)");
    }
    buffer.assign(codeobj_data, codeobj_data + codeobj_size);

    THROW_COMGR(amd_comgr_create_data(AMD_COMGR_DATA_KIND_EXECUTABLE, &data));
    try {
      THROW_COMGR(amd_comgr_set_data(data, buffer.size(), buffer.data()));
      size_t isa_size = 0;
      THROW_COMGR(amd_comgr_get_data_isa_name(data, &isa_size, nullptr));
      std::string isa(isa_size, '\0');
      THROW_COMGR(amd_comgr_get_data_isa_name(data, &isa_size, isa.data()));
      THROW_COMGR(amd_comgr_create_disassembly_info(
          isa.c_str(), &DisassemblyInstance::memory_callback,
          &DisassemblyInstance::inst_callback, [](uint64_t, void*) {}, &info));
    } catch (...) {
      amd_comgr_release_data(data);
      throw;
    }
  }
  ~DisassemblyInstance() {
    amd_comgr_destroy_disassembly_info(info);
    amd_comgr_release_data(data);
  }
  DisassemblyInstance(const DisassemblyInstance&) = delete;
  DisassemblyInstance& operator=(const DisassemblyInstance&) = delete;

  // The instruction at file offset `faddr`: its text (no surrounding blanks)
  // and its size in bytes. std::out_of_range when `faddr` is outside the
  // code object.
  std::pair<std::string, size_t> ReadInstruction(uint64_t faddr) {
    if (faddr >= buffer.size()) {
      throw std::out_of_range("offset " + std::to_string(faddr) +
                              " outside the code object (" +
                              std::to_string(buffer.size()) + " bytes)");
    }
    last_instruction.clear();
    uint64_t size_read = 0;
    // Addresses given to comgr are file offsets: memory_callback reads them
    // from the copy.
    THROW_COMGR(
        amd_comgr_disassemble_instruction(info, faddr, this, &size_read));
    return {std::move(last_instruction), static_cast<size_t>(size_read)};
  }

  // The code object's function symbols by virtual address (those whose
  // address maps to bytes of the file).
  std::map<uint64_t, SymbolInfo>& GetKernelMap() {
    symbol_map.clear();
    THROW_COMGR(amd_comgr_iterate_symbols(
        data, &DisassemblyInstance::symbol_callback, this));
    return symbol_map;
  }

  static amd_comgr_status_t symbol_callback(amd_comgr_symbol_t symbol,
                                            void* user_data) {
    auto& self = *static_cast<DisassemblyInstance*>(user_data);
    amd_comgr_symbol_type_t type{};
    RETURN_COMGR(
        amd_comgr_symbol_get_info(symbol, AMD_COMGR_SYMBOL_INFO_TYPE, &type));
    if (type != AMD_COMGR_SYMBOL_TYPE_FUNC) return AMD_COMGR_STATUS_SUCCESS;

    uint64_t vaddr = 0;
    uint64_t size = 0;
    uint64_t name_length = 0;
    RETURN_COMGR(
        amd_comgr_symbol_get_info(symbol, AMD_COMGR_SYMBOL_INFO_VALUE, &vaddr));
    RETURN_COMGR(
        amd_comgr_symbol_get_info(symbol, AMD_COMGR_SYMBOL_INFO_SIZE, &size));
    RETURN_COMGR(amd_comgr_symbol_get_info(
        symbol, AMD_COMGR_SYMBOL_INFO_NAME_LENGTH, &name_length));
    // comgr writes the name with its terminating NUL.
    std::string name(static_cast<size_t>(name_length) + 1, '\0');
    RETURN_COMGR(amd_comgr_symbol_get_info(symbol, AMD_COMGR_SYMBOL_INFO_NAME,
                                           name.data()));
    name.resize(std::strlen(name.c_str()));

    if (std::optional<uint64_t> faddr = self.va2fo(vaddr)) {
      self.symbol_map[vaddr] = SymbolInfo{std::move(name), *faddr, vaddr, size};
    }
    return AMD_COMGR_STATUS_SUCCESS;
  }

  // comgr's reads of the code object: `from` is a file offset.
  static uint64_t memory_callback(uint64_t from, char* to, uint64_t size,
                                  void* user_data) {
    const auto& self = *static_cast<const DisassemblyInstance*>(user_data);
    if (from >= self.buffer.size()) return 0;
    uint64_t available = self.buffer.size() - from;
    uint64_t count = size < available ? size : available;
    std::memcpy(to, self.buffer.data() + from, count);
    return count;
  }

  // The instruction's text without the blanks the printer puts around it.
  static void inst_callback(const char* instruction, void* user_data) {
    if (instruction == nullptr) return;
    while (*instruction == ' ' || *instruction == '\t') ++instruction;
    std::string& text =
        static_cast<DisassemblyInstance*>(user_data)->last_instruction;
    text = instruction;
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
      text.pop_back();
    }
  }

  // The file offset of virtual address `va`: inside a loadable segment's
  // bytes in the file, else nothing (also for addresses a segment only
  // reserves, like .bss, and for a buffer that is not a 64-bit ELF).
  std::optional<uint64_t> va2fo(uint64_t va) const {
    if (buffer.size() < sizeof(Elf64_Ehdr)) return std::nullopt;
    Elf64_Ehdr header;
    std::memcpy(&header, buffer.data(), sizeof(header));
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
        header.e_ident[EI_CLASS] != ELFCLASS64 ||
        header.e_phentsize < sizeof(Elf64_Phdr) ||
        header.e_phoff > buffer.size() ||
        static_cast<uint64_t>(header.e_phnum) * header.e_phentsize >
            buffer.size() - header.e_phoff) {
      return std::nullopt;
    }
    for (uint64_t i = 0; i < header.e_phnum; ++i) {
      Elf64_Phdr segment;
      std::memcpy(&segment,
                  buffer.data() + header.e_phoff + i * header.e_phentsize,
                  sizeof(segment));
      if (segment.p_type != PT_LOAD || va < segment.p_vaddr) continue;
      uint64_t delta = va - segment.p_vaddr;
      if (delta >= segment.p_filesz) continue;
      if (segment.p_offset > buffer.size() ||
          delta >= buffer.size() - segment.p_offset) {
        continue;
      }
      return segment.p_offset + delta;
    }
    return std::nullopt;
  }

  std::vector<char> buffer{};
  std::string last_instruction{};
  amd_comgr_disassembly_info_t info{};
  amd_comgr_data_t data{};
  std::map<uint64_t, SymbolInfo> symbol_map{};
};

}  // namespace disassembly
}  // namespace codeobj
}  // namespace sdk
}  // namespace rocprofiler

#endif  // ROCPROFILER_SDK_CXX_CODEOBJ_DISASSEMBLY_HPP_
