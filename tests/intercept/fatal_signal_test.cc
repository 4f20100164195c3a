// Last words at a fatal signal (runtime/platform/fatal_signal.h), each case
// in a forked child that dies (or not) as the program would have: the
// registered callbacks run before the process goes, after the program's own
// handler, and the signal's outcome (the child's wait status) is the one
// without the tracer. A pipe carries what ran, in order.
#include "runtime/platform/fatal_signal.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

namespace {

int g_out = -1;  // the child's end of the pipe

void Say(const char* text) {
  if (write(g_out, text, std::strlen(text)) < 0) _exit(99);
}

void LastWords(void* arg) { Say(static_cast<const char*>(arg)); }

struct Outcome {
  int status = 0;
  std::string said;
};

// Runs `body` in a child with the handler installed and two last words
// registered; returns its wait status and what it wrote.
Outcome RunChild(const std::function<void()>& body) {
  int fds[2];
  EXPECT_EQ(0, pipe(fds));
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    g_out = fds[1];
    roctracer::fatal_signal::Install();
    if (!roctracer::fatal_signal::AddLastWords(&LastWords,
                                               const_cast<char*>("[first]")) ||
        !roctracer::fatal_signal::AddLastWords(&LastWords,
                                               const_cast<char*>("[second]")))
      _exit(98);
    body();
    _exit(0);
  }
  close(fds[1]);
  Outcome out;
  char buf[256];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof(buf))) > 0) out.said.append(buf, n);
  close(fds[0]);
  EXPECT_EQ(pid, waitpid(pid, &out.status, 0));
  return out;
}

bool KilledBy(int status, int sig) {
  return WIFSIGNALED(status) && WTERMSIG(status) == sig;
}

void NullWrite() {
  volatile int* p = nullptr;
  *p = 1;
}

TEST(FatalSignalTest, ASegfaultSaysTheLastWordsAndStillDiesOfIt) {
  const Outcome o = RunChild([] { NullWrite(); });
  EXPECT_TRUE(KilledBy(o.status, SIGSEGV)) << o.status;
  EXPECT_EQ("[first][second]", o.said);
}

TEST(FatalSignalTest, AbortDiesOfSigabrt) {
  const Outcome o = RunChild([] { std::abort(); });
  EXPECT_TRUE(KilledBy(o.status, SIGABRT)) << o.status;
  EXPECT_EQ("[first][second]", o.said);
}

TEST(FatalSignalTest, IllegalInstructionAndDivisionByZero) {
  Outcome o = RunChild([] { __builtin_trap(); });
  EXPECT_TRUE(KilledBy(o.status, SIGILL)) << o.status;
  EXPECT_EQ("[first][second]", o.said);
  o = RunChild([] {
    // An integer division by zero the compiler cannot fold away.
    int dividend = 1, zero = 0;
    asm volatile("cltd; idivl %1" : "+a"(dividend) : "r"(zero) : "edx");
  });
  EXPECT_TRUE(KilledBy(o.status, SIGFPE)) << o.status;
  EXPECT_EQ("[first][second]", o.said);
}

TEST(FatalSignalTest, ASignalSentByKillDiesOfIt) {
  const Outcome o = RunChild([] { kill(getpid(), SIGBUS); });
  EXPECT_TRUE(KilledBy(o.status, SIGBUS)) << o.status;
  EXPECT_EQ("[first][second]", o.said);
}

TEST(FatalSignalTest, SignalsThatDoNotKillSayNothing) {
  Outcome o = RunChild([] { kill(getpid(), SIGTERM); });
  EXPECT_TRUE(KilledBy(o.status, SIGTERM)) << o.status;
  EXPECT_EQ("", o.said);
  o = RunChild([] {
    struct sigaction ign {};
    ign.sa_handler = SIG_IGN;
    roctracer_sigaction_hook(SIGABRT, &ign, nullptr);
    raise(SIGABRT);
  });
  EXPECT_TRUE(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0) << o.status;
  EXPECT_EQ("", o.said);
}

void ResetAndSay(int sig) {
  Say("[program]");
  roctracer_signal_hook(sig, SIG_DFL);
}

TEST(FatalSignalTest, TheProgramsHandlerRunsFirst) {
  // Installed after ours (as a program does in main), through the hook the
  // GOT patcher puts in its sigaction slot; it resets the default action and
  // returns, so the fault happens again and kills.
  const Outcome o = RunChild([] {
    struct sigaction sa {};
    sa.sa_handler = ResetAndSay;
    struct sigaction old {};
    ASSERT_EQ(0, roctracer_sigaction_hook(SIGSEGV, &sa, &old));
    if (old.sa_handler != SIG_DFL) Say("[not the default before]");
    struct sigaction now {};
    roctracer_sigaction_hook(SIGSEGV, nullptr, &now);
    if (now.sa_handler != ResetAndSay) Say("[not the program's]");
    NullWrite();
  });
  EXPECT_TRUE(KilledBy(o.status, SIGSEGV)) << o.status;
  EXPECT_EQ("[program][first][second]", o.said);
}

TEST(FatalSignalTest, AHandlerThatHandlesTheSignalKeepsTheProcessAlive) {
  // A sent SIGSEGV the program's handler takes: nothing dies, nothing said.
  Outcome o = RunChild([] {
    roctracer_signal_hook(SIGSEGV, [](int) { Say("[program]"); });
    raise(SIGSEGV);
    Say("[alive]");
  });
  EXPECT_TRUE(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0) << o.status;
  EXPECT_EQ("[program][alive]", o.said);
  // Resetting to the default without raising again: still alive.
  o = RunChild([] {
    roctracer_signal_hook(SIGSEGV, ResetAndSay);
    raise(SIGSEGV);
    Say("[alive]");
  });
  EXPECT_TRUE(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0) << o.status;
  EXPECT_EQ("[program][alive]", o.said);
}

TEST(FatalSignalTest, AHandlerFoundAtInstallRunsFirstToo) {
  int fds[2];
  ASSERT_EQ(0, pipe(fds));
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    g_out = fds[1];
    struct sigaction sa {};
    sa.sa_handler = [](int) {
      Say("[program]");
      signal(SIGABRT, SIG_DFL);  // the C library's: not through the hook
    };
    sigaction(SIGABRT, &sa, nullptr);
    roctracer::fatal_signal::Install();
    roctracer::fatal_signal::AddLastWords(&LastWords,
                                          const_cast<char*>("[first]"));
    std::abort();
  }
  close(fds[1]);
  std::string said;
  char buf[256];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof(buf))) > 0) said.append(buf, n);
  int status = 0;
  ASSERT_EQ(pid, waitpid(pid, &status, 0));
  EXPECT_TRUE(KilledBy(status, SIGABRT)) << status;
  // The program put the default back in the kernel itself (abort() raises
  // again): the last words come before that second raise kills.
  EXPECT_EQ("[program][first]", said);
}

TEST(FatalSignalTest, OffWithTheEnvironmentVariable) {
  const Outcome o = RunChild([] {});
  EXPECT_EQ("", o.said);
  int fds[2];
  ASSERT_EQ(0, pipe(fds));
  const pid_t pid = fork();
  if (pid == 0) {
    setenv("ROCTRACER_CRASH_FLUSH", "0", 1);
    roctracer::fatal_signal::Install();
    _exit(roctracer::fatal_signal::AddLastWords(&LastWords, nullptr) ? 1 : 0);
  }
  close(fds[0]);
  close(fds[1]);
  int status = 0;
  ASSERT_EQ(pid, waitpid(pid, &status, 0));
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

}  // namespace
