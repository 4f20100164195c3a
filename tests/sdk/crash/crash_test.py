"""A rocprofiler-sdk tool library with buffer tracing in a program that dies
of a fatal signal (the tool linked into the program, or loaded through
ROCP_TOOL_LIBRARIES): every record the program's calls made reaches the tool's
buffer callback, its finalize runs after the last delivery, and the program
still dies of the same signal (crash_tool.cc, crash_program.cc)."""
import os
import signal
import subprocess
import sys
import tempfile
import unittest

PROGRAM = None  # linked with the tool library
UNTOOLED = None  # the same program without it
TOOL = None  # the tool library
CALLS = 5000


class CrashTest(unittest.TestCase):

    def run_program(self, how, program=None, **env_extra):
        fd, out = tempfile.mkstemp(dir=os.environ.get("TEST_TMPDIR"))
        os.close(fd)
        os.unlink(out)
        env = dict(os.environ, CRASH_TOOL_OUT=out, **env_extra)
        p = subprocess.run([program or PROGRAM, how, str(CALLS)], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=60)
        self.assertIn(b"calls done", p.stdout, p.stderr)
        lines = []
        if os.path.exists(out):
            with open(out) as f:
                lines = f.read().splitlines()
            os.unlink(out)
        return p, lines

    def check_everything_delivered(self, lines, stderr):
        self.assertTrue(lines, "the tool's finalize wrote nothing: %s" % stderr)
        self.assertEqual(lines[-1], "finalize", lines)
        deliveries = [int(l.split()[1]) for l in lines
                      if l.startswith("delivery ")]
        ops = dict((l.split()[1], int(l.split()[2])) for l in lines
                   if l.startswith("op "))
        self.assertEqual(ops.get("hsa_status_string"), CALLS, ops)
        self.assertEqual(ops.get("hsa_system_get_info"), 1, ops)
        self.assertIn("drops 0", lines)
        # Every record the tool got came in some delivery: the records
        # counted by operation are all of them.
        self.assertEqual(sum(deliveries), sum(ops.values()), lines)
        # The buffer is 256 KiB delivered at 128 KiB: some records were
        # delivered before the end, the rest only by the last flush.
        self.assertGreater(len(deliveries), 1, lines)
        return deliveries

    def test_return_from_main_delivers_everything(self):
        p, lines = self.run_program("return")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.check_everything_delivered(lines, p.stderr)

    def check_dies_of(self, how, sig):
        p, lines = self.run_program(how)
        self.assertEqual(p.returncode, -sig,
                         "%s: want death by signal %d, got %d; stderr %s" %
                         (how, sig, p.returncode, p.stderr))
        self.check_everything_delivered(lines, p.stderr)

    def test_sigsegv_delivers_everything_and_finalizes(self):
        self.check_dies_of("segv", signal.SIGSEGV)

    def test_abort_delivers_everything_and_finalizes(self):
        self.check_dies_of("abort", signal.SIGABRT)

    def test_sigsegv_on_a_worker_thread(self):
        self.check_dies_of("segv-worker", signal.SIGSEGV)

    def test_a_tool_from_rocp_tool_libraries(self):
        p, lines = self.run_program("segv", program=UNTOOLED,
                                    ROCP_TOOL_LIBRARIES=os.path.abspath(TOOL))
        self.assertEqual(p.returncode, -signal.SIGSEGV, p.stderr)
        self.check_everything_delivered(lines, p.stderr)

    def test_without_the_crash_flush_the_tool_hears_nothing(self):
        # ROCTRACER_CRASH_FLUSH=0 turns the fatal-signal handler off: the
        # program dies as before, its tool unfinalized (what the tests above
        # would see if the library did nothing at a crash).
        p, lines = self.run_program("segv", ROCTRACER_CRASH_FLUSH="0")
        self.assertEqual(p.returncode, -signal.SIGSEGV, p.stderr)
        self.assertEqual(lines, [])


if __name__ == "__main__":
    PROGRAM, UNTOOLED, TOOL = sys.argv[1:4]
    del sys.argv[1:4]
    unittest.main()
