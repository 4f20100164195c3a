#!/usr/bin/python3
"""<rocprofiler-sdk/cxx/codeobj/*.hpp> as a tool uses them, against LLVM.

A client built with the system g++ against the install tree alone
(-I<prefix>/include, -lamd_comgr -ldw) disassembles real AMDGPU code objects
written by hipcc (gfx90a, with debug information) through
CodeobjAddressTranslate, by load address, as a tool does from a code-object
load record. Every kernel's instructions (address, size, text) must be what
llvm-objdump prints for the same bytes, and each instruction's source lines
must hold the line llvm-objdump --line-numbers gives it. Three sources: the
device code object in memory, the same object inside the host object's
offload bundle named by a "file://...#offset=N&size=M" URI (how the HSA
loader names the code objects of a HIP program), with a percent-encoded
path. Then every bad input the client knows gets its documented answer.
The same client built by CMake through find_package(rocprofiler-sdk), as
rocprofiler-sdk 1.0.0's samples build theirs (CMAKELISTS), disassembles the
same.

Usage: codeobj_test.py INSTALL CLIENT_SOURCE DEVICE_CODE_OBJECT HOST_OBJECT
                       CMAKELISTS
"""

import glob
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest
import urllib.parse

INSTALL, CLIENT, DEVICE_OBJECT, HOST_OBJECT, CMAKELISTS = sys.argv[1:6]
LOAD_ADDRESS = 0x7F1234560000


def llvm_tool(name):
    """The newest LLVM's tool: Debian's hipcc is built on it."""
    found = sorted(glob.glob("/usr/lib/llvm-*/bin/" + name),
                   key=lambda p: int(re.search(r"llvm-(\d+)", p).group(1)))
    if not found:
        raise unittest.SkipTest(name + " not installed")
    return found[-1]


def objdump(path):
    """{kernel name: [(vaddr, size, text, source line or None)]} as
    llvm-objdump -d --line-numbers prints them."""
    out = subprocess.run(
        [llvm_tool("llvm-objdump"), "-d", "--line-numbers", "--mcpu=gfx90a",
         path], check=True, capture_output=True, text=True).stdout
    kernels, current, location = {}, None, None
    for line in out.splitlines():
        header = re.match(r"^([0-9a-f]{16}) <(.+)>:$", line)
        if header:
            current = kernels.setdefault(header.group(2), [])
            location = None
            continue
        source = re.match(r"^; (/.+:\d+)$", line)
        if source:
            location = source.group(1)
            continue
        inst = re.match(r"^\t(.+?)\s+// ([0-9A-F]{12}): ([0-9A-F ]+?)( <.*>)?$",
                        line)
        if inst and current is not None:
            size = 4 * len(inst.group(3).split())
            current.append((int(inst.group(2), 16), size, inst.group(1),
                            location))
    return kernels


class CodeobjTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        prefix = os.path.join(cls.tmp, "prefix")
        cls.prefix = prefix
        subprocess.run([INSTALL, "--prefix", prefix], check=True,
                       stdout=subprocess.DEVNULL)
        cls.client = os.path.join(cls.tmp, "codeobj_client")
        # As a tool builds: the system compiler, its default flags, the
        # install tree's headers alone.
        subprocess.run([
            "g++", "-std=c++17", "-Wall", "-Wextra", "-Werror",
            "-I" + os.path.join(prefix, "include"), CLIENT, "-o", cls.client,
            "-lamd_comgr", "-ldw"
        ], check=True)

    def disassemble(self, source):
        """{kernel name: (symbol line fields, [(vaddr, size, text, lines)])}
        from the client."""
        out = subprocess.run([self.client, "disasm", source,
                              hex(LOAD_ADDRESS)],
                             check=True, capture_output=True,
                             text=True).stdout
        kernels, current = {}, None
        for line in out.splitlines():
            fields = line.split(" ", 5)
            if fields[0] == "symbol":
                load, vaddr, faddr = (int(f, 16) for f in fields[1:4])
                size = int(fields[4])
                current = []
                kernels[fields[5]] = ((load, vaddr, faddr, size), current)
            elif fields[0] == "inst":
                text, _, comment = line.split(" ", 3)[3].partition("\t")
                current.append((int(fields[1], 16), int(fields[2]), text,
                                comment.split()))
        return kernels

    def check_against_objdump(self, source, object_path):
        expected = objdump(object_path)
        got = self.disassemble(source)
        # Every kernel; llvm-objdump also lists the kernel descriptors of
        # .rodata, which are no functions.
        self.assertEqual(
            sorted(got),
            sorted(k for k in expected if not k.endswith(".kd")))
        self.assertGreaterEqual(len(got), 3)
        with open(object_path, "rb") as f:
            data = f.read()
        for name, ((load, vaddr, faddr, size), insts) in got.items():
            with self.subTest(kernel=name):
                self.assertEqual(load, LOAD_ADDRESS + vaddr)
                want = [i for i in expected[name] if i[0] < vaddr + size]
                self.assertEqual(want[0][0], vaddr)
                self.assertEqual([i[:3] for i in insts],
                                 [i[:3] for i in want])
                self.assertEqual(sum(i[1] for i in insts), size)
                # The symbol's file offset holds its first instruction's
                # bytes: the instruction's encoding, as objdump read it.
                self.assertEqual(data[faddr:faddr + 4],
                                 self.encoding(object_path, vaddr))
                # objdump names no line where a function starts with a row
                # of line 0; the rest must agree.
                checked = 0
                for (addr, _, text, lines), (_, _, _, line) in zip(insts, want):
                    if line is not None:
                        self.assertIn(line, lines, "%x %s" % (addr, text))
                        checked += 1
                self.assertGreater(checked, len(insts) // 2)
        return got

    @staticmethod
    def encoding(path, vaddr):
        out = subprocess.run(
            [llvm_tool("llvm-objdump"), "-d", "--mcpu=gfx90a",
             "--start-address=%#x" % vaddr, "--stop-address=%#x" % (vaddr + 4),
             path], check=True, capture_output=True, text=True).stdout
        word = re.search(r"// [0-9A-F]{12}: ([0-9A-F]{8})", out).group(1)
        return struct.pack("<I", int(word, 16))

    def test_device_code_object_in_memory(self):
        got = self.check_against_objdump(DEVICE_OBJECT, DEVICE_OBJECT)
        # The kernels' own source file is among the lines.
        lines = {l for _, insts in got.values() for i in insts for l in i[3]}
        self.assertTrue(any("codeobj_kernels.hip:" in l for l in lines))
        # Branches and the loop, vector and scalar memory operations.
        texts = [i[2] for _, insts in got.values() for i in insts]
        for prefix in ("s_cbranch_", "global_load_", "s_load_", "ds_",
                       "s_endpgm"):
            self.assertTrue(any(t.startswith(prefix) for t in texts), prefix)

    def bundle_entry(self):
        """(file offset, size) of the gfx90a code object in the host
        object's offload bundle."""
        with open(HOST_OBJECT, "rb") as f:
            data = f.read()
        start = data.find(b"__CLANG_OFFLOAD_BUNDLE__")
        self.assertGreaterEqual(start, 0)
        (count,) = struct.unpack_from("<Q", data, start + 24)
        pos = start + 32
        for _ in range(count):
            offset, size, id_size = struct.unpack_from("<QQQ", data, pos)
            pos += 24
            ident = data[pos:pos + id_size].decode()
            pos += id_size
            if ident.endswith("gfx90a"):
                return start + offset, size
        self.fail("no gfx90a code object in the bundle")

    def test_code_object_uri_in_bundle(self):
        offset, size = self.bundle_entry()
        # A path with a space, percent-encoded in the URI.
        directory = os.path.join(self.tmp, "host objects")
        os.makedirs(directory, exist_ok=True)
        host = os.path.join(directory, "kernels host.o")
        shutil.copy(HOST_OBJECT, host)
        extracted = os.path.join(self.tmp, "extracted.co")
        with open(HOST_OBJECT, "rb") as f:
            f.seek(offset)
            with open(extracted, "wb") as out:
                out.write(f.read(size))
        uri = "file://%s#offset=%#x&size=%d" % (urllib.parse.quote(host),
                                                offset, size)
        self.assertIn("%20", uri)
        self.check_against_objdump(uri, extracted)

    def test_bad_input(self):
        run = subprocess.run([self.client, "errors", DEVICE_OBJECT],
                             capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertEqual(len(re.findall(r"^ok ", run.stdout, re.M)), 37,
                         run.stdout)
        self.assertNotIn("FAIL", run.stdout)

    def test_cmake_client(self):
        """find_package(rocprofiler-sdk), amd_comgr and libdw::libdw: the
        client builds and disassembles as the one built by hand."""
        if shutil.which("cmake") is None:
            self.skipTest("cmake not installed")
        src = os.path.join(self.tmp, "cmake_src")
        build = os.path.join(self.tmp, "cmake_build")
        os.makedirs(src, exist_ok=True)
        shutil.copy(CMAKELISTS, os.path.join(src, "CMakeLists.txt"))
        shutil.copy(CLIENT, os.path.join(src, "codeobj_client.cc"))
        for step in (["cmake", "-S", src, "-B", build,
                      "-DCMAKE_PREFIX_PATH=" + self.prefix],
                     ["cmake", "--build", build]):
            run = subprocess.run(step, capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        client = os.path.join(build, "codeobj_client")
        got, want = (subprocess.run(
            [c, "disasm", DEVICE_OBJECT, hex(LOAD_ADDRESS)], check=True,
            capture_output=True, text=True).stdout
                     for c in (client, self.client))
        self.assertEqual(got, want)
        self.assertIn("inst ", got)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
