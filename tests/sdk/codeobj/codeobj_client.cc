// A tool's use of <rocprofiler-sdk/cxx/codeobj/code_printing.hpp>, built by
// codeobj_test with the system g++ against the install tree:
//
//   codeobj_client disasm SOURCE LOAD_ADDRESS
//     adds the code object SOURCE (a file read into memory, or a code-object
//     URI given to the decoder as it is) loaded at LOAD_ADDRESS, as a tool
//     does from a code-object load record, and prints every function symbol
//     and each of its instructions, looked up by load address:
//       symbol <load address> <vaddr> <file offset> <size> <name>
//       inst <vaddr> <size> <text>\t<source lines>
//   codeobj_client errors CODE_OBJECT_FILE
//     gives the helpers bad input and checks the documented answer of each:
//     "ok CASE" or "FAIL CASE: why" per case; exit status 1 on a failure.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <rocprofiler-sdk/cxx/codeobj/code_printing.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace disassembly = rocprofiler::sdk::codeobj::disassembly;
namespace segment = rocprofiler::sdk::codeobj::segment;

namespace {

std::vector<char> read_file(const char* path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    std::fprintf(stderr, "cannot read %s\n", path);
    std::exit(2);
  }
  return std::vector<char>(std::istreambuf_iterator<char>(file),
                           std::istreambuf_iterator<char>());
}

int disasm(const char* source, uint64_t load) {
  disassembly::CodeobjAddressTranslate translate;
  std::vector<char> bytes;
  constexpr disassembly::marker_id_t kId = 5;
  // The loaded size a load record would give: 64 KiB covers the objects
  // tested.
  constexpr uint64_t kLoadSize = 0x10000;
  if (std::string(source).find("://") != std::string::npos) {
    translate.addDecoder(source, kId, load, kLoadSize);
  } else {
    bytes = read_file(source);
    translate.addDecoder(bytes.data(), bytes.size(), kId, load, kLoadSize);
  }
  auto by_id = translate.getSymbolMap(kId);
  for (const auto& [address, symbol] : translate.getSymbolMap()) {
    const char* name = translate.getSymbolName(address);
    if (name == nullptr || symbol.name != name ||
        by_id.at(address - load).name != symbol.name ||
        symbol.vaddr != address - load) {
      std::fprintf(stderr, "symbol at 0x%" PRIx64 " inconsistent\n", address);
      return 1;
    }
    std::printf("symbol %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIu64 " %s\n",
                address, symbol.vaddr, symbol.faddr, symbol.mem_size,
                symbol.name.c_str());
    for (uint64_t at = address; at < address + symbol.mem_size;) {
      std::unique_ptr<disassembly::Instruction> inst = translate.get(at);
      if (!inst || inst->size == 0 || inst->ld_addr != at ||
          inst->codeobj_id != kId || inst->vaddr != at - load) {
        std::fprintf(stderr, "no instruction at 0x%" PRIx64 "\n", at);
        return 1;
      }
      std::printf("inst %" PRIx64 " %zu %s\t%s\n", inst->vaddr, inst->size,
                  inst->inst.c_str(), inst->comment.c_str());
      at += inst->size;
    }
  }
  return 0;
}

int failures = 0;

// Runs `body`; the case passes when it throws exactly `Expected` (or a
// class derived from it, but not from `Unexpected`).
template <typename Expected>
void expect_throw(const char* name, const std::function<void()>& body) {
  try {
    body();
    std::printf("FAIL %s: no exception\n", name);
    ++failures;
  } catch (const Expected&) {
    std::printf("ok %s\n", name);
  } catch (const std::exception& e) {
    std::printf("FAIL %s: another exception: %s\n", name, e.what());
    ++failures;
  }
}

void expect(const char* name, bool passed) {
  std::printf("%s %s\n", passed ? "ok" : "FAIL", name);
  if (!passed) ++failures;
}

int errors(const char* path) {
  std::vector<char> object = read_file(path);
  std::vector<char> garbage(4096, 'x');
  constexpr uint64_t kLoad = 0x100000;
  constexpr uint64_t kSize = 0x10000;

  // Code objects that are none.
  expect_throw<std::invalid_argument>(
      "null data", [] { disassembly::DisassemblyInstance(nullptr, 64); });
  expect_throw<std::invalid_argument>("empty data", [&] {
    disassembly::CodeobjDecoderComponent(object.data(), 0);
  });
  expect_throw<std::runtime_error>("not a code object", [&] {
    disassembly::CodeobjDecoderComponent(garbage.data(), garbage.size());
  });
  expect_throw<std::runtime_error>("truncated code object", [&] {
    disassembly::CodeobjDecoderComponent(object.data(), 16);
  });
  expect_throw<std::invalid_argument>("null data, map", [] {
    disassembly::CodeobjMap map;
    map.addDecoder(static_cast<const void*>(nullptr), 0, 1, kLoad, kSize);
  });

  // Code objects that cannot be read.
  expect_throw<std::runtime_error>("null path", [] {
    disassembly::LoadedCodeobjDecoder(static_cast<const char*>(nullptr), kLoad,
                                      kSize);
  });
  expect_throw<std::runtime_error>("missing file", [] {
    disassembly::LoadedCodeobjDecoder("/nonexistent/object.co", kLoad, kSize);
  });
  expect_throw<std::runtime_error>("missing file URI", [] {
    disassembly::LoadedCodeobjDecoder("file:///nonexistent/a.out#offset=0",
                                      kLoad, kSize);
  });
  expect_throw<std::runtime_error>("directory URI", [] {
    disassembly::CodeObjectBinary("file:///tmp#offset=0");
  });
  expect_throw<std::runtime_error>("memory URI", [] {
    disassembly::CodeObjectBinary("memory://1234#offset=0x7f0000&size=4096");
  });
  std::string file_uri = std::string("file://") + path;
  expect_throw<std::runtime_error>("offset past the file", [&] {
    disassembly::CodeObjectBinary(
        file_uri + "#offset=" + std::to_string(object.size() + 1));
  });
  expect_throw<std::runtime_error>("size past the file", [&] {
    disassembly::CodeObjectBinary(
        file_uri + "#offset=8&size=" + std::to_string(object.size()));
  });
  expect_throw<std::runtime_error>("bad number", [&] {
    disassembly::CodeObjectBinary(file_uri + "#offset=12ab");
  });
  expect("size=0 reads nothing",
         disassembly::CodeObjectBinary(file_uri + "#size=0").buffer.empty());
  expect("whole file",
         disassembly::CodeObjectBinary(file_uri).buffer == object);

  // Offsets and addresses outside the code object.
  disassembly::CodeobjDecoderComponent component(object.data(), object.size());
  expect_throw<std::out_of_range>("offset past the end", [&] {
    component.disassemble_instruction(object.size(), 0);
  });
  expect_throw<std::out_of_range>("offset far past the end", [&] {
    component.disassembly->ReadInstruction(UINT64_MAX);
  });
  expect("no file offset past the segments",
         !component.va2fo(UINT64_MAX / 2).has_value());

  disassembly::CodeobjAddressTranslate translate;
  translate.addDecoder(object.data(), object.size(), 9, kLoad, kSize);
  expect_throw<std::out_of_range>("address below every code object",
                                  [&] { translate.get(kLoad - 1); });
  expect_throw<std::out_of_range>("address past every code object",
                                  [&] { translate.get(kLoad + kSize); });
  expect("no instruction past the file's segments",
         translate.get(kLoad + kSize - 4) == nullptr);
  expect("no symbol at a non-symbol address",
         translate.getSymbolName(kLoad + 2) == nullptr);
  expect("no symbol outside", translate.getSymbolName(kLoad - 1) == nullptr);
  expect("id 0 is an address", translate.get(0, kLoad + kSize - 4) == nullptr);
  expect("unknown id", translate.get(7, 0) == nullptr);
  disassembly::CodeobjMap& by_id = translate;
  expect("unknown id, symbol", by_id.getSymbolName(7, 0) == nullptr);
  expect("unknown id, symbols", translate.getSymbolMap(7).empty());
  expect("remove unknown id", !translate.removeDecoder(7));
  expect("remove", translate.removeDecoder(9));
  expect("remove again", !translate.removeDecoder(9));
  expect_throw<std::out_of_range>("address of a removed code object",
                                  [&] { translate.get(kLoad); });

  disassembly::LoadedCodeobjDecoder loaded(object.data(), object.size(), kLoad,
                                           kSize);
  expect("below the load address", loaded.get(kLoad - 4) == nullptr);

  segment::CodeobjTableTranslator table;
  expect_throw<std::out_of_range>("empty table",
                                  [&] { table.find_codeobj_in_range(0); });
  table.insert({0x1000, 0x100, 3});
  expect("range found", table.find_codeobj_in_range(0x10ff).id == 3);
  expect_throw<std::out_of_range>("end of a range",
                                  [&] { table.find_codeobj_in_range(0x1100); });
  expect("remove by address", table.remove(0x1080) && table.empty());
  expect("remove absent", !table.remove(0x1080));

  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "disasm") {
    return disasm(argv[2], std::strtoull(argv[3], nullptr, 0));
  }
  if (argc == 3 && std::string(argv[1]) == "errors") return errors(argv[2]);
  std::fprintf(stderr,
               "usage: %s disasm SOURCE LOAD_ADDRESS | errors CODE_OBJECT\n",
               argv[0]);
  return 2;
}
