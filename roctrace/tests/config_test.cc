// Settings, path keys, command-line parsing and record pairing, without
// running a program.
#include "roctrace/tool/config.h"

#include <gtest/gtest.h>
#include <roctracer_hsa.h>
#include <roctracer_roctx.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_set>
#include <vector>

#include "roctrace/cli/input_file.h"
#include "roctrace/cli/options.h"
#include "roctrace/tests/scratch_dir.h"
#include "roctrace/tool/config_document.h"
#include "roctrace/tool/exec_image.h"
#include "roctrace/tool/record_converter.h"
#include "roctrace/tool/sdk_hip_name.h"
#include "roctrace/tool/truncate_kernel_name.h"
#include "roctrace/writers/agent_naming.h"
#include "roctrace/writers/json_writer.h"
#include "roctrace/writers/writer_thread.h"

namespace roctrace {
namespace {

struct Env {
  std::map<std::string, std::string> vars;
  const char* operator()(const char* name) const {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  }
};

TEST(PathKeys, ExpandsRocprofv3Keys) {
  Env env{{{"SLURM_PROCID", "7"}, {"TAG", "x"}}};
  EXPECT_EQ(ExpandPathKeys("%hostname%/%pid%/%ppid%_%rank%_%env{TAG}%", 12, 3,
                           "node", env),
            "node/12/3_7_x");
  env.vars["OMPI_COMM_WORLD_RANK"] = "2";  // MPI's rank wins over Slurm's
  EXPECT_EQ(ExpandPathKeys("r%rank%", 1, 1, "h", env), "r2");
  EXPECT_EQ(ExpandPathKeys("r%rank%", 1, 1, "h", Env{}), "r0");
  EXPECT_EQ(ExpandPathKeys("a%unknown%b%", 1, 1, "h", env), "a%unknown%b%");
  EXPECT_EQ(ExpandPathKeys("100%_%pid%", 5, 1, "h", env), "100%_5");
  EXPECT_EQ(ExpandPathKeys("%env{NOPE}%", 5, 1, "h", env), "");
}

TEST(PathKeys, CommandLineKeysAsRocprofv3) {
  const std::vector<std::string> command = {"./bin/app", "--", "-n", "4",
                                            " in/x.dat"};
  auto expand = [&](const char* pattern) {
    return ExpandPathKeys(pattern, 12, 3, "node", Env{}, command);
  };
  // Words: '/' as '_', leading '.' and '_' removed; the "--" after the
  // program dropped.
  EXPECT_EQ(expand("%argv%"), "bin_app_-n_4_in_x.dat");
  EXPECT_EQ(expand("%args%"), "-n_4_in_x.dat");
  EXPECT_EQ(expand("%tag%"), "app");
  EXPECT_EQ(expand("%argt%"), "app-n_4_in_x.dat");
  EXPECT_EQ(expand("{tag}/{pid}"), "app/12");
  EXPECT_EQ(expand("%arg0%.%arg2%"), "bin_app.4");
  // A word past the end goes with the separators after it.
  EXPECT_EQ(expand("r_%arg9%-_/%pid%"), "r_12");
  EXPECT_EQ(ExpandPathKeys("%tag%%args%", 1, 1, "h", Env{}), "");
}

TEST(PathKeys, ShorthandsEnvironmentAndLaunchTime) {
  Env env{{{"SLURM_JOB_ID", "77"},
           {"OMPI_COMM_WORLD_RANK", "2"},
           {"OMPI_COMM_WORLD_SIZE", "4"},
           {"WHO", " /a b/c"},
           {"ROCTRACE_LAUNCH_TIME", "86400"},
           {"ROCPROF_TIME_FORMAT", "%Y_%j"}}};
  EXPECT_EQ(ExpandPathKeys("%h-%p-%j-%r-%s", 9, 1, "node", env),
            "node-9-77-2-4");
  // Environment values: leading blanks and '/' removed, the others '_'.
  for (const char* key :
       {"%env{WHO}%", "%ENV{WHO}%", "$env{WHO}", "$ENV{WHO}", "%q{WHO}"}) {
    EXPECT_EQ(ExpandPathKeys(std::string("x") + key, 9, 1, "h", env), "xa_b_c")
        << key;
  }
  EXPECT_EQ(ExpandPathKeys("%launch_time%", 9, 1, "h", env), "1970_002");
  EXPECT_EQ(ExpandPathKeys("%launch_date%", 9, 1, "h", env), "1970-01-02");
  // The children of the parent given: this process's, none then one.
  EXPECT_EQ(ExpandPathKeys("%psize%", 9, getpid(), "h", env), "0");
  int gate[2];
  ASSERT_EQ(pipe(gate), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    char c;
    close(gate[1]);
    _exit(read(gate[0], &c, 1) < 0 ? 1 : 0);
  }
  close(gate[0]);
  EXPECT_EQ(ExpandPathKeys("%psize%", 9, getpid(), "h", env), "1");
  close(gate[1]);
  waitpid(child, nullptr, 0);
  EXPECT_EQ(ExpandPathKeys("{nope}%zz", 9, 1, "h", env), "{nope}%zz");
}

TEST(PathKeys, MpiAndBatchKeysAndTheOutputPrefix) {
  Env env{{{"OMPI_COMM_WORLD_SIZE", "4"}, {"SLURM_JOB_ID", "77"}}};
  // %nid% is the rank under a launcher, else the pid.
  EXPECT_EQ(ExpandPathKeys("%size%_%job%_%nid%", 5, 1, "h", env), "4_77_5");
  env.vars["PMI_RANK"] = "3";
  EXPECT_EQ(ExpandPathKeys("%nid%", 5, 1, "h", env), "3");
  EXPECT_EQ(ExpandPathKeys("%size%", 1, 1, "h", Env{}), "1");
  // rocprofv3's default: <cwd>/<hostname>/<pid>; a relative directory is
  // the start directory's, an absolute file the whole prefix.
  Config c;
  EXPECT_EQ(OutputPrefix(c.output_dir, c.output_file, "/start", 9, 1, "h", env),
            "/start/h/9");
  EXPECT_EQ(OutputPrefix("./out/", "r%pid%", "/start", 9, 1, "h", env),
            "/start/out/r9");
  EXPECT_EQ(OutputPrefix("%cwd%/x", "r", "/start", 9, 1, "h", env),
            "/start/x/r");
  EXPECT_EQ(OutputPrefix("/abs", "sub/r", "/start", 9, 1, "h", env),
            "/abs/sub/r");
  EXPECT_EQ(OutputPrefix("/abs", "/other/r", "/start", 9, 1, "h", env),
            "/other/r");
}

TEST(Sizes, ParseWithSuffixes) {
  uint64_t v = 0;
  EXPECT_TRUE(ParseSize("64K", &v));
  EXPECT_EQ(v, 65536u);
  EXPECT_TRUE(ParseSize("1GiB", &v));
  EXPECT_EQ(v, 1ull << 30);
  EXPECT_TRUE(ParseSize("12", &v));
  EXPECT_EQ(v, 12u);
  EXPECT_FALSE(ParseSize("", &v));
  EXPECT_FALSE(ParseSize("K", &v));
  EXPECT_FALSE(ParseSize("5X", &v));
  EXPECT_FALSE(ParseSize("-5", &v));
  EXPECT_FALSE(ParseSize("99999999999999999999G", &v));
}

TEST(CollectionPeriod, ParsesAndWindows) {
  CollectionPeriod p;
  EXPECT_TRUE(ParseCollectionPeriod("1:2:0", &p));
  EXPECT_FALSE(ParseCollectionPeriod("1:2", &p));
  EXPECT_FALSE(ParseCollectionPeriod("-1:2:1", &p));
  EXPECT_FALSE(ParseCollectionPeriod("1:2:1.5", &p));
  EXPECT_FALSE(ParseCollectionPeriod("a:2:1", &p));
  // Delay 1 s, collect 2 s, without end: [1,3) [4,6) ...
  std::vector<CollectionPeriod> forever = {{1, 2, 0}};
  EXPECT_FALSE(InCollectionWindow(forever, 0.5));
  EXPECT_TRUE(InCollectionWindow(forever, 1.5));
  EXPECT_FALSE(InCollectionWindow(forever, 3.5));
  EXPECT_TRUE(InCollectionWindow(forever, 4.5));
  std::vector<CollectionPeriod> once = {{1, 2, 1}};
  EXPECT_TRUE(InCollectionWindow(once, 2.9));
  EXPECT_FALSE(InCollectionWindow(once, 4.5));
  EXPECT_TRUE(InCollectionWindow({}, 123));
}

TEST(Config, ReadsVariablesAndReportsBadOnes) {
  Env env{{{"ROCTRACE_OUTPUT_FORMAT", "csv,pftrace,xml"},
           {"ROCTRACE_DOMAINS", "hip"},
           {"ROCTRACE_BUFFER_SIZE", "1"},
           {"ROCTRACE_STATS", "1"}}};
  std::vector<std::string> warnings;
  Config c = ReadConfig(env, &warnings);
  EXPECT_FALSE(c.rocpd);
  EXPECT_TRUE(c.csv && c.pftrace && c.hip && c.stats);
  EXPECT_FALSE(c.hsa || c.marker);
  EXPECT_EQ(c.buffer_size, 64u * 1024);  // the bad value is ignored
  EXPECT_EQ(warnings.size(), 2u);
}

TEST(Config, ApiArgumentsOfEveryDomainUnlessAsked) {
  std::vector<std::string> warnings;
  EXPECT_EQ(ReadConfig(Env{{}}, &warnings).api_args, Config::ApiArgs::kAll);
  EXPECT_EQ(ReadConfig(Env{{{"ROCTRACE_API_ARGS", "hip"}}}, &warnings).api_args,
            Config::ApiArgs::kHip);
  EXPECT_EQ(ReadConfig(Env{{{"ROCTRACE_API_ARGS", "0"}}}, &warnings).api_args,
            Config::ApiArgs::kNone);
  EXPECT_EQ(ReadConfig(Env{{{"ROCTRACE_API_ARGS", "1"}}}, &warnings).api_args,
            Config::ApiArgs::kAll);
  EXPECT_TRUE(warnings.empty());
}

Options Parse(std::vector<std::string> args, bool* ok, std::string* error) {
  Options o;
  *ok = ParseOptions(args, &o, error);
  return o;
}

TEST(Options, Rocprofv3Names) {
  bool ok;
  std::string error;
  Options o = Parse({"--sys-trace", "--output-format", "rocpd", "pftrace",
                     "--stats", "-S", "-d", "out", "--", "app", "-x"},
                    &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_TRUE(o.hip_runtime && o.hip_compiler && o.hsa_core && o.hsa_amd &&
              o.marker && o.kernel && o.memory_copy);
  EXPECT_EQ(o.formats, (std::vector<std::string>{"rocpd", "pftrace"}));
  EXPECT_EQ(o.program, (std::vector<std::string>{"app", "-x"}));
  o = Parse({"--runtime-trace", "--output-format=csv,json", "app"}, &ok,
            &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_FALSE(o.hsa_core || o.hsa_amd || o.hip_compiler);
  EXPECT_TRUE(o.hip_runtime);
  EXPECT_EQ(o.formats, (std::vector<std::string>{"csv", "json"}));
  o = Parse({"app"}, &ok, &error);  // no tracing option: --sys-trace
  ASSERT_TRUE(ok);
  EXPECT_TRUE(o.hip_runtime && o.hsa_core && o.marker);
}

TEST(Options, Rocprofv3ShortFormsBoolsAndLists) {
  bool ok;
  std::string error;
  // Short forms, a BOOL value, a format in capitals, several periods in
  // one flag, in milliseconds.
  Options o = Parse({"-r",
                     "--hip-trace",
                     "False",
                     "-S",
                     "true",
                     "--stats=no",
                     "--output-format",
                     "CSV",
                     "Json",
                     "-P",
                     "1:2:0",
                     "3:4:1",
                     "--collection-period-unit",
                     "msec",
                     "-d",
                     "d",
                     "-o",
                     "f",
                     "--",
                     "app"},
                    &ok, &error);
  ASSERT_TRUE(ok) << error;
  // rocprofv3's rule: -r turns on hip_runtime_trace, which --hip-trace
  // False leaves unset; the compiler calls stay off.
  EXPECT_TRUE(o.hip_runtime);
  EXPECT_FALSE(o.hip_compiler);
  EXPECT_TRUE(o.marker && o.kernel && o.summary);
  EXPECT_FALSE(o.stats);
  EXPECT_EQ(o.formats, (std::vector<std::string>{"csv", "json"}));
  ASSERT_EQ(o.collection_periods.size(), 2u);
  CollectionPeriod p;
  ASSERT_TRUE(ParseCollectionPeriod(o.collection_periods[1], &p));
  EXPECT_DOUBLE_EQ(p.delay_s, 0.003);  // in seconds for the tool
  EXPECT_DOUBLE_EQ(p.duration_s, 0.004);
  EXPECT_EQ(p.repeat, 1u);
  EXPECT_EQ(o.output_dir, "d");
  EXPECT_EQ(o.output_file, "f");
  // The finer HIP and HSA parts.
  o = Parse({"--hip-compiler-trace", "--hsa-amd-trace", "app"}, &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_TRUE(o.hip_compiler && o.hsa_amd);
  EXPECT_FALSE(o.hip_runtime || o.hsa_core || o.hsa_image || o.marker);
  auto env = ToolEnvironment(o);
  EXPECT_EQ(env[0], std::make_pair(std::string("ROCTRACE_DOMAINS"),
                                   std::string("hip_compiler,hsa_amd")));
  // The memory allocation trace: alone, and in -r (as rocprofv3's).
  o = Parse({"--memory-allocation-trace", "app"}, &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_EQ(ToolEnvironment(o)[0].second, "memory_allocation");
  o = Parse({"-r", "app"}, &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_EQ(ToolEnvironment(o)[0].second,
            "hip_runtime,marker,kernel,memory_copy,memory_allocation,"
            "scratch_memory");
  std::vector<std::string> warnings;
  EXPECT_TRUE(
      ReadConfig(Env{{{"ROCTRACE_DOMAINS", "memory_allocation"}}}, &warnings)
          .memory_allocation);
  EXPECT_TRUE(warnings.empty());
  // rocprofv3's Perfetto settings: accepted, said to have no effect.
  o = Parse({"-f", "pftrace", "--perfetto-buffer-size", "1024",
             "--perfetto-buffer-fill-policy", "ring_buffer",
             "--perfetto-backend", "inprocess", "--", "app"},
            &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_EQ(o.formats, (std::vector<std::string>{"pftrace"}));
  EXPECT_EQ(o.notes.size(), 3u);
  o = Parse({"--perfetto-backend", "system", "--", "app"}, &ok, &error);
  EXPECT_FALSE(ok);
  o = Parse({"-s", "--version"}, &ok, &error);
  EXPECT_TRUE(ok && o.version);
  o = Parse({"--log-level", "ERROR", "-u", "msec", "app"}, &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_EQ(o.log_level, "error");
  EXPECT_EQ(o.summary_units, "msec");
}

// An option set false stays false wherever it stands on the line: -r, -s
// (and no tracing option at all, roctrace's --sys-trace) turn on only what
// was not set, as rocprofv3 does.
TEST(Options, AnExplicitFalseHoldsWhateverTheOrder) {
  bool ok;
  std::string error;
  for (const std::vector<std::string>& line :
       std::vector<std::vector<std::string>>{
           {"--hsa-trace=False", "-s", "app"},
           {"-s", "--hsa-trace", "false", "app"},
           {"--hsa-trace=no", "--hip-trace", "-r", "app"}}) {
    Options o = Parse(line, &ok, &error);
    ASSERT_TRUE(ok) << error;
    EXPECT_FALSE(o.hsa_core || o.hsa_amd || o.hsa_image || o.hsa_finalizer)
        << line[0];
    EXPECT_TRUE(o.hip_runtime && o.hip_compiler && o.marker && o.kernel &&
                o.memory_copy)
        << line[0];
  }
  Options o = Parse({"--kernel-trace=0", "--hip-runtime-trace=off", "-r",
                     "--hsa-core-trace", "app"},
                    &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_FALSE(o.kernel || o.hip_runtime || o.hip_compiler || o.hsa_amd);
  EXPECT_TRUE(o.marker && o.memory_copy && o.hsa_core);
  // A part set false inside a group turned on later.
  o = Parse({"--hsa-amd-trace=false", "--hsa-trace", "app"}, &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_TRUE(o.hsa_core && o.hsa_image && o.hsa_finalizer);
  EXPECT_FALSE(o.hsa_amd || o.hip_runtime || o.marker);
  // -s false is not -s.
  o = Parse({"-s", "false", "--marker-trace", "app"}, &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_TRUE(o.marker);
  EXPECT_FALSE(o.hsa_core || o.hip_runtime || o.kernel);
  // Nor is -s0 (a short option's value joined to it, as argparse takes it).
  o = Parse({"-s0", "--marker-trace", "app"}, &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_TRUE(o.marker);
  EXPECT_FALSE(o.hsa_core || o.hip_runtime || o.kernel);
  // The same from an input file, whatever the order of its keys.
  const ScratchDir dir("roctrace_bool_order");
  const std::string path = dir / "input.json";
  std::ofstream(path)
      << R"({"jobs": [{"hsa_trace": false, "sys_trace": true}]})";
  o = Parse({"-i", path, "--", "app"}, &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_FALSE(o.hsa_core || o.hsa_amd);
  EXPECT_TRUE(o.hip_runtime && o.kernel);
  EXPECT_EQ(ToolEnvironment(o)[0].second,
            "hip,marker,kernel,memory_copy,memory_allocation,scratch_memory");
}

// rocprofv3's rule when the tracing options given turn nothing on: nothing
// is traced (a warning says so), and statistics or summaries are an error.
// No tracing option at all stays roctrace's --sys-trace.
TEST(Options, TracingOptionsThatTurnNothingOnTraceNothing) {
  bool ok;
  std::string error;
  for (const std::vector<std::string>& line :
       std::vector<std::vector<std::string>>{
           {"--sys-trace=False", "app"},
           {"-s", "false", "app"},
           {"--kernel-trace=0", "app"},
           {"--hsa-trace=no", "app"},
           {"-r0", "--hip-trace=off", "app"}}) {
    Options o = Parse(line, &ok, &error);
    ASSERT_TRUE(ok) << error;
    EXPECT_TRUE(o.trace_nothing) << line[0];
    EXPECT_FALSE(o.hip_runtime || o.hip_compiler || o.hsa_core || o.marker ||
                 o.kernel || o.memory_copy || o.memory_allocation ||
                 o.scratch_memory || o.kfd)
        << line[0];
    ASSERT_EQ(o.notes.size(), 1u) << line[0];
    EXPECT_NE(o.notes[0].find("no tracing options were enabled"),
              std::string::npos);
    EXPECT_EQ(ToolEnvironment(o)[0].second, "") << line[0];
  }
  for (const std::vector<std::string>& line :
       std::vector<std::vector<std::string>>{
           {"--sys-trace=False", "--stats", "app"},
           {"--sys-trace=False", "-S", "app"},
           {"--sys-trace=False", "-D", "app"},
           {"--sys-trace=False", "--summary-groups", "HIP_API", "--", "app"},
           {"--sys-trace=False", "--summary-output-file", "x", "app"},
           {"--sys-trace=False", "-u", "msec", "app"}}) {
    Parse(line, &ok, &error);
    EXPECT_FALSE(ok) << line[1];
    EXPECT_NE(
        error.find("no tracing options were enabled for the " +
                   (line[1] == "-S"   ? std::string("--summary")
                    : line[1] == "-D" ? std::string("--summary-per-domain")
                    : line[1] == "-u" ? std::string("--summary-units")
                                      : line[1])),
        std::string::npos)
        << error;
  }
  // --stats=False is no statistics; --group-by-queue counts as a tracing
  // option (no warning, statistics allowed), still tracing nothing.
  Options o = Parse({"--sys-trace=False", "--stats=False", "app"}, &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_TRUE(o.trace_nothing);
  o = Parse({"--sys-trace=False", "--group-by-queue", "--stats", "app"}, &ok,
            &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_TRUE(o.trace_nothing && o.notes.empty());
  // Something on: traced as asked.
  o = Parse({"--sys-trace=False", "--marker-trace", "--stats", "app"}, &ok,
            &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_FALSE(o.trace_nothing || o.hip_runtime);
  EXPECT_TRUE(o.marker);
  o = Parse({"--stats", "app"}, &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_FALSE(o.trace_nothing);
  EXPECT_TRUE(o.hip_runtime && o.hsa_core && o.kernel);
}

TEST(Options, Rocprofv3InputFiles) {
  std::vector<std::vector<std::string>> jobs;
  std::string error;
  ASSERT_TRUE(ParseInputJson(
      R"({"jobs": [{"kernel_trace": true, "hip_trace": false,
                    "output_format": ["csv", "JSON"], "output_file": "r\u00e9",
                    "collection_period": ["1:2:0"], "log_level": null}]})",
      "in.json", &jobs, &error))
      << error;
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(
      jobs[0],
      (std::vector<std::string>{
          "--kernel-trace=true", "--hip-trace=false", "--output-format", "csv",
          "JSON", "--output-file=r\xc3\xa9", "--collection-period", "1:2:0"}));
  for (const char* bad :
       {"", "[]", "{\"jobs\": []}", "{\"jobs\": [1]}",
        "{\"jobs\": [{\"a\": {}}]}", "{\"jobs\": [{\"a\": tru}]}",
        "{\"jobs\": [{}]} x", "{\"jobs\": [{\"a\": \"\\q\"}]}",
        // Malformed: unterminated, trailing comma, bad number, control
        // character in a string, a list holding an object.
        "{\"jobs\": [{\"a\": \"x}]}", "{\"jobs\": [{\"a\": 1,}]}",
        "{\"jobs\": [{\"a\": 01}]}", "{\"jobs\": [{\"a\": \"\x01\"}]}",
        "{\"jobs\": [{\"a\": [1, {}]}]}", "{\"jobs\": 5}"}) {
    jobs.clear();
    EXPECT_FALSE(ParseInputJson(bad, "in.json", &jobs, &error)) << bad;
    EXPECT_NE(error.find("in.json"), std::string::npos);
  }
  // Through -i: the file's options in its place, later ones override.
  const ScratchDir dir("roctrace_input");
  const std::string path = dir / "input.json";
  std::ofstream(path)
      << R"({"jobs": [{"marker_trace": true, "output_directory": "a"}]})";
  bool ok;
  Options o = Parse({"-i", path, "-d", "b", "--", "app"}, &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_TRUE(o.marker);
  EXPECT_FALSE(o.hip_runtime);
  EXPECT_EQ(o.output_dir, "b");
  Parse({"-i", "in.txt", "--", "app"}, &ok, &error);
  EXPECT_FALSE(ok);
  // Several jobs: each in pass_N of its directory (one job: none).
  std::ofstream(path) << R"({"jobs": [{"marker_trace": true},
      {"kernel_trace": true, "output_directory": "k"}, {}]})";
  std::vector<Options> several;
  ASSERT_TRUE(ParseJobs({"-i", path, "--", "app"}, &several, &error)) << error;
  ASSERT_EQ(several.size(), 3u);
  EXPECT_EQ(several[0].output_dir, "pass_1");
  EXPECT_EQ(several[1].output_dir, "k/pass_2");
  EXPECT_EQ(several[2].output_dir, "pass_3");
  several.clear();
  ASSERT_TRUE(
      ParseJobs({"-d", "out", "-i", path, "--", "app"}, &several, &error))
      << error;
  EXPECT_EQ(several[2].output_dir, "out/pass_3");
  // Without "--": the options end at the program, options with values
  // included (-d out is not the program).
  several.clear();
  ASSERT_TRUE(ParseJobs({"-d", "out", "-i", path, "app"}, &several, &error))
      << error;
  EXPECT_EQ(several.size(), 3u);
  // An -i among the program's own arguments, with a "--" further on, is the
  // program's (neither read as a file nor spliced into them).
  o = Parse({"--hip-trace", "app", "-iters", "5", "--", "x"}, &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_EQ(o.program,
            (std::vector<std::string>{"app", "-iters", "5", "--", "x"}));
  o = Parse({"--hip-trace", "app", "-i", path, "--", "x"}, &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_EQ(o.program,
            (std::vector<std::string>{"app", "-i", path, "--", "x"}));
  EXPECT_FALSE(o.marker);
}

TEST(Options, Rocprofv3YamlInputFiles) {
  std::vector<std::vector<std::string>> jobs;
  std::string error;
  ASSERT_TRUE(ParseInputYaml(R"(# rocprofv3 input
jobs:
  - kernel_trace: true
    hip_trace: False   # a comment
    output_format: [csv, "json"]
    output_file: 'it''s'
    collection_period:
      - "1:2:0"
      - 3:4:1
    log_level: ~
  -
    sys_trace: true
)",
                             "in.yaml", &jobs, &error))
      << error;
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0], (std::vector<std::string>{
                         "--kernel-trace=true", "--hip-trace=false",
                         "--output-format", "csv", "json", "--output-file=it's",
                         "--collection-period", "1:2:0", "3:4:1"}));
  EXPECT_EQ(jobs[1], (std::vector<std::string>{"--sys-trace=true"}));
  // YAML's flow style is YAML too.
  jobs.clear();
  ASSERT_TRUE(
      ParseInputYaml("jobs: [{kernel_trace: yes, output_format: [csv]}]",
                     "in.yaml", &jobs, &error))
      << error;
  EXPECT_EQ(jobs, (std::vector<std::vector<std::string>>{
                      {"--kernel-trace=yes", "--output-format", "csv"}}));
  for (const char* bad :
       {"jobs:\n\t- a: 1\n", "jobs: [\n", "jobs:\n  - a: 1\n b: 2\n",
        "just text\n",
        // Malformed: an unclosed flow mapping, a list holding a mapping,
        // two documents, a key that is a list, no document.
        "jobs:\n  - {a: 1\n", "jobs:\n  - a: [1, {b: 2}]\n",
        "jobs:\n  - a: 1\n---\njobs:\n  - b: 1\n", "jobs:\n  - [a]: 1\n", "",
        "# only a comment\n"}) {
    jobs.clear();
    EXPECT_FALSE(ParseInputYaml(bad, "in.yaml", &jobs, &error)) << bad;
    EXPECT_NE(error.find("in.yaml"), std::string::npos) << error;
  }
}

TEST(Options, GpuOnlyOptionsAreRefusedByName) {
  for (const char* option : {"--pmc", "--pc-sampling-unit", "--att",
                             "--att-target-cu", "-L", "--rccl-trace"}) {
    bool ok;
    std::string error;
    Parse({option, "x", "--", "app"}, &ok, &error);
    EXPECT_FALSE(ok) << option;
    EXPECT_NE(error.find("not supported"), std::string::npos) << error;
    EXPECT_NE(error.find(option), std::string::npos) << error;
  }
}

// rocprofv3's other options: checked against its argparse (rocprofv3.py).
TEST(Options, Rocprofv3AdvancedOptions) {
  bool ok;
  std::string error;
  Options o = Parse({"-v"}, &ok, &error);
  EXPECT_TRUE(ok && o.version) << error;
  o = Parse({"--selected-regions", "--disable-signal-handlers", "true",
             "--output-config", "--log-level", "config", "--rocm-root",
             "/opt/rocm", "--sdk-version", "1.0.0", "--sdk-soversion=1",
             "--hsa-finalize-trace", "--", "app"},
            &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_TRUE(o.selected_regions && o.disable_signal_handlers &&
              o.output_config && o.hsa_finalizer);
  EXPECT_FALSE(o.hsa_core);
  EXPECT_EQ(o.log_level, "config");
  EXPECT_EQ(o.notes.size(), 3u);  // the three that have no effect
  auto env = ToolEnvironment(o);
  bool selected = false;
  for (const auto& kv : env) {
    EXPECT_NE(kv.first, "ROCTRACE_LOG_LEVEL");  // config is the command's
    selected |= kv.first == "ROCTRACE_SELECTED_REGIONS" && kv.second == "1";
  }
  EXPECT_TRUE(selected);
  const std::string json = ConfigurationJson(o, 42);
  EXPECT_NE(json.find("\"ROCTRACER_CRASH_FLUSH\": \"0\""), std::string::npos)
      << json;
  EXPECT_NE(json.find("\"pid\": 42"), std::string::npos) << json;
  for (const std::vector<std::string>& bad :
       std::vector<std::vector<std::string>>{{"-E", "x.yaml", "app"},
                                             {"--extra-counters", "x", "app"},
                                             {"-f", "otf2", "app"},
                                             {"-f", "csv", "otf2", "app"},
                                             {"--sdk-soversion", "x", "app"}}) {
    Parse(bad, &ok, &error);
    EXPECT_FALSE(ok) << bad[0];
    EXPECT_NE(error.find(bad[0] == "--sdk-soversion" ? "bad" : "not supported"),
              std::string::npos)
        << error;
  }
  // The input schema's keys.
  std::vector<std::vector<std::string>> jobs;
  ASSERT_TRUE(ParseInputJson(
      R"({"jobs": [{"hsa_finalize_trace": true,
                    "disable-signal-handlers": true}]})",
      "in.json", &jobs, &error))
      << error;
  std::vector<std::string> args = jobs[0];
  args.push_back("app");
  o = Parse(args, &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_TRUE(o.hsa_finalizer && o.disable_signal_handlers);
}

// --output-config's file, as the tool writes it in a traced process and the
// command for a program run untraced: one document, read by a JSON parser.
TEST(ConfigDocument, PidCommandAndConfigUnderRoctrace) {
  const std::string text = ConfigDocument(
      42, {"/bin/prog", "a b", "bad\xff"},
      R"({"ROCTRACE_DOMAINS":"hip","ROCTRACER_CRASH_FLUSH":"0"})");
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  const nlohmann::json doc = nlohmann::json::parse(text);
  ASSERT_EQ(doc.size(), 1u);
  const auto& r = doc.at("roctrace");
  EXPECT_EQ(r.at("pid"), 42);
  EXPECT_EQ(r.at("command"),
            nlohmann::json({"/bin/prog", "a b", "bad\xef\xbf\xbd"}));
  // The configuration's keys in their order.
  EXPECT_LT(text.find("ROCTRACE_DOMAINS"), text.find("ROCTRACER_CRASH_FLUSH"));
  EXPECT_EQ(r.at("config"), nlohmann::json({{"ROCTRACE_DOMAINS", "hip"},
                                            {"ROCTRACER_CRASH_FLUSH", "0"}}));
  // Configuration text that is not a JSON object: kept, as a string.
  const auto bad = nlohmann::json::parse(ConfigDocument(1, {}, "{oops"));
  EXPECT_EQ(bad["roctrace"]["config"], "{oops");
  EXPECT_EQ(bad["roctrace"]["command"], nlohmann::json::array());
  // The command's file for an untraced program is this document, of the
  // object it hands a traced process.
  bool ok;
  std::string error;
  const Options o =
      Parse({"--hip-trace", "--output-config", "--", "app", "x"}, &ok, &error);
  ASSERT_TRUE(ok) << error;
  EXPECT_EQ(ConfigurationJson(o, 9),
            ConfigDocument(9, {"app", "x"}, ConfigurationObject(o)));
}

TEST(Options, GroupByQueueTakesABool) {
  for (const auto& [args, on] :
       std::vector<std::pair<std::vector<std::string>, bool>>{
           {{"--group-by-queue", "--", "app"}, true},
           {{"--group-by-queue", "true", "--", "app"}, true},
           {{"--group-by-queue", "False", "--", "app"}, false}}) {
    bool ok;
    std::string error;
    Options o = Parse(args, &ok, &error);
    ASSERT_TRUE(ok) << error;
    EXPECT_EQ(o.program, std::vector<std::string>{"app"});
    EXPECT_EQ(o.group_by_queue, on);
    EXPECT_TRUE(o.notes.empty());
  }
}

TEST(Options, MinimumOutputDataInKilobytes) {
  bool ok;
  std::string error;
  Options o = Parse({"--minimum-output-data", "100", "--", "app"}, &ok, &error);
  ASSERT_TRUE(ok) << error;
  bool found = false;
  for (const auto& kv : ToolEnvironment(o)) {
    if (kv.first == "ROCTRACE_MINIMUM_OUTPUT_KB") {
      EXPECT_EQ(kv.second, "100");
      found = true;
    }
  }
  EXPECT_TRUE(found);
  for (const char* bad : {"-1", "1K", "x", ""}) {
    Parse({"--minimum-output-data", bad, "--", "app"}, &ok, &error);
    EXPECT_FALSE(ok) << bad;
  }
  std::vector<std::string> warnings;
  std::map<std::string, std::string> env = {
      {"ROCTRACE_MINIMUM_OUTPUT_KB", "3"}};
  Config c = ReadConfig(
      [&env](const char* n) {
        auto it = env.find(n);
        return it == env.end() ? nullptr : it->second.c_str();
      },
      &warnings);
  EXPECT_EQ(c.minimum_output_bytes, 3u * 1024);
  EXPECT_TRUE(warnings.empty());
}

TEST(Options, BadInputIsAnError) {
  bool ok;
  std::string error;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {},
           {"--hip-trace"},
           {"--hip-trace", "--"},
           {"-d"},
           {"--bogus", "--", "app"},
           {"--output-format", "xml", "--", "app"},
           {"--buffer-size", "100", "--", "app"},
           {"--perfetto-max-size", "0", "--", "app"},
           {"--collection-period", "x", "--", "app"},
           {"--kernel-include-regex", "(", "--", "app"},
           {"-o", "--", "app"},  // a missing value, not a prefix "--"
           {"-d", "--", "app"},
           {"--hip-trace=maybe", "--", "app"},
           {"--output-format", "csv", "xml", "--", "app"},
           {"--collection-period-unit", "day", "--", "app"},
           {"--kernel-exclude-regex", "[a", "--", "app"}}) {
    Parse(args, &ok, &error);
    EXPECT_FALSE(ok) << args.size();
    EXPECT_FALSE(error.empty());
  }
}

activity_record_t Roctx(uint32_t op, uint32_t tid, uint64_t id, uint64_t ts,
                        const char* message) {
  activity_record_t r{};
  r.domain = ACTIVITY_DOMAIN_ROCTX;
  r.op = op;
  r.correlation_id = id;
  r.begin_ns = r.end_ns = ts;
  r.process_id = 1;
  r.thread_id = tid;
  r.mark_message = message;
  return r;
}

TEST(RecordConverter, PairsRangesAndCountsWhatItCannot) {
  std::vector<ApiEvent> events;
  RecordConverter c([&](const ApiEvent& e) { events.push_back(e); });
  c.Convert(Roctx(ROCTX_API_ID_roctxRangePushA, 1, 10, 100, "outer"));
  c.Convert(Roctx(ROCTX_API_ID_roctxRangePushA, 1, 11, 110, "inner"));
  c.Convert(Roctx(ROCTX_API_ID_roctxMarkA, 2, 12, 115, "mark"));
  c.Convert(Roctx(ROCTX_API_ID_roctxRangePop, 1, 13, 120, nullptr));
  c.Convert(Roctx(ROCTX_API_ID_roctxRangeStartA, 1, 14, 130, "async"));
  c.Convert(Roctx(ROCTX_API_ID_roctxRangePop, 1, 15, 140, nullptr));
  c.Convert(Roctx(ROCTX_API_ID_roctxRangePop, 2, 16, 150, nullptr));
  c.Convert(Roctx(ROCTX_API_ID_roctxRangeStop, 3, 14, 160, nullptr));
  c.Convert(Roctx(ROCTX_API_ID_roctxRangePushA, 3, 17, 170, "open"));
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].op->name, "mark");
  EXPECT_TRUE(events[0].instant);
  EXPECT_EQ(events[1].op->name, "inner");
  EXPECT_EQ(events[1].start_ns, 110u);
  EXPECT_EQ(events[1].end_ns, 120u);
  EXPECT_EQ(events[2].op->name, "outer");
  EXPECT_EQ(events[2].correlation_id, 10u);
  EXPECT_EQ(events[3].op->name, "async");
  EXPECT_EQ(events[3].async_range_id, 14u);
  EXPECT_EQ(events[3].tid, 3u);  // the range ended on another thread
  // rocprofv3 files marks under MARKER_CORE_RANGE_API too.
  EXPECT_EQ(events[0].op->domain, "MARKER_CORE_RANGE_API");  // a mark
  EXPECT_EQ(events[1].op->domain, "MARKER_CORE_RANGE_API");
  EXPECT_EQ(events[3].op->domain, "MARKER_CORE_RANGE_API");
  EXPECT_EQ(c.unmatched_range_ends(), 1u);
  EXPECT_EQ(c.open_ranges(), 1u);
}

TEST(RecordConverter, MarkerMessagesAreWrittenAsValidUtf8) {
  std::vector<ApiEvent> events;
  RecordConverter c([&](const ApiEvent& e) { events.push_back(e); });
  c.Convert(Roctx(ROCTX_API_ID_roctxMarkA, 1, 1, 10, "bad\xff\xfe"));
  c.Convert(Roctx(ROCTX_API_ID_roctxMarkA, 1, 2, 20, "\xc3("));
  c.Convert(
      Roctx(ROCTX_API_ID_roctxMarkA, 1, 3, 30, "caf\xc3\xa9 \xf0\x9f\x98\x80"));
  c.Convert(
      Roctx(ROCTX_API_ID_roctxMarkA, 1, 4, 40, "\xed\xa0\x80"));  // surrogate
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].op->name, "bad\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(events[1].op->name, "\xef\xbf\xbd(");
  EXPECT_EQ(events[2].op->name, "caf\xc3\xa9 \xf0\x9f\x98\x80");  // kept
  EXPECT_EQ(events[3].op->name, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
}

TEST(AgentNaming, KfdTopologyGivesPositionsAndNodes) {
  // Node 0 a CPU, node 1 an APU (CPU and GPU), node 2 a GPU: CPU agents
  // come first, then the GPUs in node order.
  const ScratchDir dir("agent_topology");
  const std::pair<int, const char*> nodes[] = {
      {0, "cpu_cores_count 8\nsimd_count 0\n"},
      {1, "cpu_cores_count 4\nsimd_count 32\n"},
      {2, "cpu_cores_count 0\nsimd_count 64\n"}};
  for (const auto& [id, text] : nodes) {
    const std::string node = dir / std::to_string(id);
    ASSERT_EQ(mkdir(node.c_str(), 0755), 0);
    std::ofstream(node + "/properties") << text;
  }
  AgentTopology t = ReadAgentTopology(dir.path());
  EXPECT_EQ(t.cpu_nodes, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(t.gpu_nodes, (std::vector<uint32_t>{1, 2}));
  SetAgentNaming(AgentIndex::kRelative, t);
  EXPECT_EQ(AgentName({true, 1}), "Agent 3");
  EXPECT_EQ(AgentName({false, 0}), "Agent 0");
  SetAgentNaming(AgentIndex::kAbsolute, t);
  EXPECT_EQ(AgentName({true, 1}), "Agent 2");
  EXPECT_EQ(AgentName({true, 0}), "Agent 1");
  SetAgentNaming(AgentIndex::kTypeRelative, t);
  EXPECT_EQ(AgentName({true, 1}), "GPU 1");
  // No topology: one CPU agent assumed.
  t = ReadAgentTopology(dir / "none");
  EXPECT_EQ(t.cpu_nodes, (std::vector<uint32_t>{0}));
  SetAgentNaming(AgentIndex::kRelative, t);
  EXPECT_EQ(AgentName({true, 0}), "Agent 1");
  EXPECT_EQ(AgentAbsoluteIndex({true, 2}), 3);
}

TEST(KernelNames, TruncatedAsRocprofv3Truncates) {
  EXPECT_EQ(TruncateKernelName("Foo<int, float>::foo(a[], int (int))"), "foo");
  EXPECT_EQ(TruncateKernelName("void ns::scale<float>(float*, int)"), "scale");
  EXPECT_EQ(TruncateKernelName("kernel_a"), "kernel_a");
  EXPECT_EQ(TruncateKernelName("std::pair<A, B>* std::__do_uninit_copy<"
                               "std::pair<A, B> const*>(std::pair<A, B> "
                               "const*, std::pair<A, B>*)"),
            "__do_uninit_copy");
  EXPECT_EQ(TruncateKernelName(""), "");
  EXPECT_EQ(TruncateKernelName("(unbalanced"), "(unbalanced");
}

TEST(RecordConverter, PairsARangeStoppedBeforeItsStartIsDelivered) {
  // roctxRangeStartA on thread 1, roctxRangeStop on thread 2: the two
  // threads' records come in separate buffers, the stop's first.
  std::vector<ApiEvent> events;
  RecordConverter c([&](const ApiEvent& e) { events.push_back(e); });
  c.Convert(Roctx(ROCTX_API_ID_roctxRangeStop, 2, 21, 300, nullptr));
  EXPECT_TRUE(events.empty());
  c.Convert(Roctx(ROCTX_API_ID_roctxRangeStartA, 1, 21, 200, "cross"));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].op->name, "cross");
  EXPECT_EQ(events[0].start_ns, 200u);
  EXPECT_EQ(events[0].end_ns, 300u);
  EXPECT_EQ(events[0].tid, 2u);
  EXPECT_EQ(events[0].async_range_id, 21u);
  EXPECT_EQ(c.unmatched_range_ends(), 0u);
  EXPECT_EQ(c.open_ranges(), 0u);
  // A stop whose start never comes is counted, once, at the end.
  c.Convert(Roctx(ROCTX_API_ID_roctxRangeStop, 2, 99, 400, nullptr));
  EXPECT_EQ(c.unmatched_range_ends(), 1u);
}

TEST(RecordConverter, NamesApiRecordsWithRocprofv3Domains) {
  std::vector<ApiEvent> events;
  RecordConverter c([&](const ApiEvent& e) { events.push_back(e); });
  activity_record_t r{};
  r.domain = ACTIVITY_DOMAIN_HSA_API;
  r.op = 0;
  r.begin_ns = 5;
  r.end_ns = 9;
  c.Convert(r);
  r.op = 1u << 20;  // no such operation
  c.Convert(r);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].op->category, Category::kHsa);
  EXPECT_FALSE(events[0].op->name.empty());
  EXPECT_EQ(events[1].op->name, "unknown_op_1048576");
  EXPECT_EQ(c.unresolved_names(), 1u);
  EXPECT_STREQ(HsaDomainOf("hsa_amd_memory_pool_allocate"), "HSA_AMD_EXT_API");
  EXPECT_STREQ(HsaDomainOf("hsa_ext_image_create"), "HSA_IMAGE_EXT_API");
  EXPECT_STREQ(HsaDomainOf("hsa_init"), "HSA_CORE_API");
}

// HIP >= 6 renames functions by macro (`#define hipChooseDevice
// hipChooseDeviceR0600`): rocprofiler-sdk 1.0.0 names the call by its
// dispatch-table slot, hipChooseDevice, unless it has an operation of the
// suffixed name itself (hipGetDevicePropertiesR0600).
// The decision itself, on names alone: runs whatever HIP release the build
// has (the converter's test below needs HIP >= 6's renamed op codes).
TEST(SdkHipName, ARenamedFunctionTakesTheSdkSlotOfItsNameBeforeTheRename) {
  const std::unordered_set<std::string> sdk = {
      "hipChooseDevice", "hipChooseDeviceR0000", "hipGetDevicePropertiesR0600",
      "hipGetDeviceProperties", "hipMalloc"};
  // Renamed, the SDK has only the name before the rename: the SDK's name.
  EXPECT_EQ(SdkHipName("hipChooseDeviceR0600", sdk), "hipChooseDevice");
  // The SDK has an operation of the suffixed name itself: kept.
  EXPECT_EQ(SdkHipName("hipGetDevicePropertiesR0600", sdk),
            "hipGetDevicePropertiesR0600");
  EXPECT_EQ(SdkHipName("hipChooseDeviceR0000", sdk), "hipChooseDeviceR0000");
  // Not renamed, or renamed from a name the SDK does not have: as traced.
  EXPECT_EQ(SdkHipName("hipMalloc", sdk), "hipMalloc");
  EXPECT_EQ(SdkHipName("hipFreeR0600", sdk), "hipFreeR0600");
  EXPECT_EQ(SdkHipName("hipMallocR06", sdk), "hipMallocR06");
  EXPECT_EQ(SdkHipName("hipMallocR060x", sdk), "hipMallocR060x");
  // No SDK names (a process without the SDK's API): every name as traced.
  EXPECT_EQ(SdkHipName("hipChooseDeviceR0600", {}), "hipChooseDeviceR0600");
}

TEST(RecordConverter, RenamedHipFunctionsAreNamedAsTheSdkNamesThem) {
  EXPECT_EQ(HipNameBeforeRename("hipChooseDeviceR0600"), "hipChooseDevice");
  EXPECT_EQ(HipNameBeforeRename("hipChooseDevice"), "");
  EXPECT_EQ(HipNameBeforeRename("hipChooseDeviceR06"), "");
  EXPECT_EQ(HipNameBeforeRename("hsa_agent_iterateR0600"), "");
  EXPECT_EQ(HipNameBeforeRename("hipR0600"), "");
  uint32_t choose = 0, props = 0;
  if (roctracer_op_code(ACTIVITY_DOMAIN_HIP_API, "hipChooseDeviceR0600",
                        &choose, nullptr) != ROCTRACER_STATUS_SUCCESS ||
      roctracer_op_code(ACTIVITY_DOMAIN_HIP_API, "hipGetDevicePropertiesR0600",
                        &props, nullptr) != ROCTRACER_STATUS_SUCCESS) {
    GTEST_SKIP() << "built against HIP < 6: no renamed functions";
  }
  for (bool sdk : {true, false}) {
    std::vector<ApiEvent> events;
    RecordConverter c([&](const ApiEvent& e) { events.push_back(e); });
    if (sdk) {
      c.SetSdkHipRuntimeNames({"hipChooseDevice", "hipChooseDeviceR0000",
                               "hipGetDevicePropertiesR0600",
                               "hipGetDevicePropertiesR0000"});
    }
    activity_record_t r{};
    r.domain = ACTIVITY_DOMAIN_HIP_API;
    r.begin_ns = 5;
    r.end_ns = 9;
    r.op = choose;
    c.Convert(r);
    r.op = props;
    c.Convert(r);
    ASSERT_EQ(events.size(), 2u);
    // Without the SDK's names: the traced function's own.
    EXPECT_EQ(events[0].op->name,
              sdk ? "hipChooseDevice" : "hipChooseDeviceR0600");
    EXPECT_EQ(events[1].op->name, "hipGetDevicePropertiesR0600");
    EXPECT_EQ(events[0].op->domain, "HIP_RUNTIME_API_EXT");
  }
}

TEST(KernelFilter, IncludeThenExcludeSearchedInTheName) {
  KernelFilter f;
  std::string error;
  EXPECT_TRUE(f.Keep("anything"));
  ASSERT_TRUE(f.Set("^ns::|gemm", "_fp16", &error)) << error;
  EXPECT_TRUE(f.Keep("ns::scale(int)"));
  EXPECT_TRUE(f.Keep("my_gemm_fp32"));
  EXPECT_FALSE(f.Keep("my_gemm_fp16"));
  EXPECT_FALSE(f.Keep("other::ns::scale"));
  EXPECT_FALSE(f.Set("(", "", &error));
  EXPECT_NE(error.find("--kernel-include-regex"), std::string::npos);
  EXPECT_TRUE(f.Keep("other"));  // a failed Set keeps everything
}

uint32_t HsaOp(const char* name) {
  uint32_t op = 0;
  EXPECT_EQ(roctracer_op_code(ACTIVITY_DOMAIN_HSA_API, name, &op, nullptr),
            ROCTRACER_STATUS_SUCCESS);
  return op;
}

activity_record_t Api(uint32_t op, uint64_t id, uint32_t tid, int64_t status) {
  activity_record_t r{};
  r.domain = ACTIVITY_DOMAIN_HSA_API;
  r.op = op;
  r.correlation_id = id;
  r.begin_ns = 10;
  r.end_ns = 20;
  r.process_id = 1;
  r.thread_id = tid;
  r.api_status = status;
  return r;
}

DispatchRow Dispatch(uint64_t id, const char* kernel, uint64_t dispatch_id) {
  DispatchRow r{};
  r.dispatch_id = dispatch_id;
  r.correlation_id = id;
  r.begin_ns = 30;
  r.end_ns = 40;
  r.device_id = 0;
  r.queue_id = 7;
  r.kernel_name = kernel;
  r.launch.grid[0] = 100 + static_cast<uint32_t>(dispatch_id);
  r.launch.workgroup[2] = 3;
  r.launch.group_segment_size = 4096;
  return r;
}

TEST(RecordConverter, DeviceWorkTakesTheThreadOfItsCall) {
  // The batch keeps each device event's fields (the converter's are gone
  // once the sink returns).
  EventList events;
  RecordConverter c([&](const ApiEvent& e) { events.Append(e, 0); });
  c.TrackSubmittingThreads(true, true);
  std::string error;
  ASSERT_TRUE(c.SetKernelFilter("", "skip", &error));
  const uint32_t store = HsaOp("hsa_signal_store_screlease");
  // The call first, then its dispatch.
  c.Convert(Api(store, 5, 77, 0));
  c.ConvertDispatch(Dispatch(5, "k", 11));
  // The dispatch first: it waits for its call.
  c.ConvertDispatch(Dispatch(6, "k", 12));
  ASSERT_EQ(events.size(), 2u);
  c.Convert(Api(store, 6, 78, 0));
  // Filtered by name; a dispatch whose call never comes is written at the
  // end with the thread unknown.
  c.ConvertDispatch(Dispatch(8, "skip_me", 13));
  c.ConvertDispatch(Dispatch(9, "k", 14));
  c.FlushWaiting();
  ASSERT_EQ(events.size(), 5u);
  EXPECT_EQ(events[1].op->category, Category::kKernel);
  EXPECT_EQ(events[1].tid, 77u);
  EXPECT_EQ(events[1].queue_id, 7u);
  // The observer's IDs and launch sizes, as they came.
  EXPECT_EQ(events[1].device->dispatch_id, 11u);
  EXPECT_EQ(events[1].device->launch.grid[0], 111u);
  EXPECT_EQ(events[1].device->launch.workgroup[2], 3u);
  EXPECT_EQ(events[1].device->launch.group_segment_size, 4096u);
  EXPECT_EQ(events[1].op->kernel_id, 1u);
  EXPECT_EQ(events[3].correlation_id, 6u);
  EXPECT_EQ(events[3].tid, 78u);
  EXPECT_EQ(events[3].device->dispatch_id, 12u);
  EXPECT_EQ(events[3].device->launch.grid[0], 112u);
  EXPECT_EQ(events[4].correlation_id, 9u);
  EXPECT_EQ(events[4].tid, 0u);
  EXPECT_EQ(events[4].device->dispatch_id, 14u);
  EXPECT_EQ(c.filtered_kernels(), 1u);
  EXPECT_TRUE(events[0].op->submits_work);
}

// A batch keeps device work's fields (the event carries a pointer to
// them): each appended event's own, after the caller's copy is gone, past
// the batch's growth and its first chunk of device fields, and again once
// the batch is cleared and used again; API calls made in place keep their
// fields, times shifted.
TEST(EventList, KeepsEachEventsDeviceWork) {
  const OpName kernel{Category::kKernel, "k", "KERNEL_DISPATCH", 0};
  const OpName call{Category::kHip, "hipLaunchKernel", "HIP_RUNTIME_API_EXT",
                    1};
  EventList batch;
  for (int round = 0; round < 2; ++round) {
    batch.clear();
    for (uint32_t i = 0; i < 700; ++i) {
      if (i % 3 == 0) {
        batch.AppendCall(&call, i, 10 * i, 10 * i + 5, 7, i, i % 2 == 0, true,
                         i + 1, -static_cast<int64_t>(i), nullptr, 3);
        continue;
      }
      DeviceWork d{};
      d.device_id = static_cast<int32_t>(i % 5);
      d.dispatch_id = 1000 + i;
      d.launch.grid[0] = i;
      ApiEvent e{};
      e.op = &kernel;
      e.correlation_id = i;
      e.start_ns = 10 * i;
      e.end_ns = 10 * i + 5;
      e.queue_id = 40 + i;
      e.stream_id = i + 1;
      e.device = &d;
      batch.Append(e, 3);
      d = DeviceWork{};  // the caller's copy changes: the batch's must not
    }
    ASSERT_EQ(batch.size(), 700u);
    for (uint32_t i = 0; i < 700; ++i) {
      const ApiEvent& e = batch[i];
      EXPECT_EQ(e.correlation_id, i);
      EXPECT_EQ(e.start_ns, 10 * i + 3);
      EXPECT_EQ(e.end_ns, 10 * i + 8);
      EXPECT_EQ(e.stream_id, i + 1);
      if (i % 3 == 0) {
        EXPECT_EQ(e.op, &call);
        EXPECT_EQ(e.tid, i);
        EXPECT_EQ(e.pid, 7u);
        EXPECT_EQ(e.failed, i % 2 == 0);
        EXPECT_TRUE(e.stream_known);
        EXPECT_EQ(e.retval, -static_cast<int64_t>(i));
        EXPECT_EQ(e.args, nullptr);
        continue;
      }
      EXPECT_EQ(e.op, &kernel);
      EXPECT_EQ(e.queue_id, 40u + i);
      ASSERT_NE(e.device, nullptr);
      EXPECT_EQ(e.device->device_id, static_cast<int32_t>(i % 5));
      EXPECT_EQ(e.device->dispatch_id, 1000u + i);
      EXPECT_EQ(e.device->launch.grid[0], i);
    }
  }
}

// Register counts belong to the kernel name (its Kernel_Id): those of its
// first dispatch, unknown when that dispatch's kernel had none.
TEST(RecordConverter, AKernelNameTakesTheRegistersOfItsFirstDispatch) {
  std::vector<ApiEvent> events;
  RecordConverter c([&](const ApiEvent& e) { events.push_back(e); });
  DispatchRow first = Dispatch(0, "k", 1);
  first.registers = KernelRegisterCounts{true, 40, 16, 32};
  DispatchRow later = Dispatch(0, "k", 2);
  later.registers = KernelRegisterCounts{true, 8, 0, 16};
  c.ConvertDispatch(first);
  c.ConvertDispatch(later);
  c.ConvertDispatch(Dispatch(0, "unknown", 3));
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].op, events[1].op);
  const KernelRegisterCounts& r = events[1].op->registers;
  EXPECT_TRUE(r.known);
  EXPECT_EQ((std::vector<uint32_t>{r.arch_vgpr, r.accum_vgpr, r.sgpr}),
            (std::vector<uint32_t>{40, 16, 32}));
  EXPECT_FALSE(events[2].op->registers.known);
}

TEST(RecordConverter, FailedCallsAreThoseWithAnErrorStatus) {
  std::vector<ApiEvent> events;
  RecordConverter c([&](const ApiEvent& e) { events.push_back(e); });
  const uint32_t iterate = HsaOp("hsa_iterate_agents");
  c.Convert(Api(iterate, 1, 1, 0));
  c.Convert(Api(iterate, 2, 1, 0x1));     // HSA_STATUS_INFO_BREAK
  c.Convert(Api(iterate, 3, 1, 0x1008));  // HSA_STATUS_ERROR_OUT_OF_RESOURCES
  ASSERT_EQ(events.size(), 3u);
  EXPECT_FALSE(events[0].failed);
  EXPECT_FALSE(events[1].failed);
  EXPECT_TRUE(events[2].failed);
  EXPECT_FALSE(events[0].op->submits_work);  // not tracking device work
}

// The status an API call returned reaches its event (JSON's `retval`), and
// its name says whether the op returns one.
TEST(RecordConverter, ApiEventsCarryTheReturnedStatus) {
  std::vector<ApiEvent> events;
  RecordConverter c([&](const ApiEvent& e) { events.push_back(e); });
  c.Convert(Api(HsaOp("hsa_init"), 1, 1, 0x1008));
  c.Convert(Api(HsaOp("hsa_signal_load_relaxed"), 2, 1, 0));
  ASSERT_EQ(events.size(), 2u);
  EXPECT_TRUE(events[0].op->returns_status);
  EXPECT_EQ(events[0].retval, 0x1008);
  EXPECT_FALSE(events[1].op->returns_status);  // returns hsa_signal_value_t
}

// The image number an exec'd image finds in its environment.
TEST(ExecImage, ValueRoundTripsAndBadValuesAreRefused) {
  uint32_t pid = 0, image = 0;
  uint64_t start = 0;
  ASSERT_TRUE(ParseExecImage(FormatExecImage(1234, 987654321012ull, 3).c_str(),
                             &pid, &start, &image));
  EXPECT_EQ(pid, 1234u);
  EXPECT_EQ(start, 987654321012ull);
  EXPECT_EQ(image, 3u);
  for (const char* bad : {"", "1:2", "1:2:3:4", "a:2:3", "1:2:3x", "-1:2:3",
                          "99999999999:1:1", "1:1:4294967295"}) {
    EXPECT_FALSE(ParseExecImage(bad, &pid, &start, &image)) << bad;
  }
  EXPECT_FALSE(ParseExecImage(nullptr, &pid, &start, &image));
}

TEST(ExecImage, OnlyLaterImagesGetASuffix) {
  EXPECT_EQ(ExecImageSuffix(0), "");
  EXPECT_EQ(ExecImageSuffix(1), "_exec1");
  EXPECT_EQ(ExecImageSuffix(12), "_exec12");
}

// This process is image 0 unless the variable names this very process; it
// records itself for the next image either way.
TEST(ExecImage, TakesTheNextNumberOnlyForTheSameProcess) {
  setenv("ROCTRACE_EXEC_IMAGE", "1:1:7", 1);  // another process's
  EXPECT_EQ(TakeExecImageNumber(), 0u);
  uint32_t pid = 0, image = 9;
  uint64_t start = 0;
  ASSERT_TRUE(
      ParseExecImage(getenv("ROCTRACE_EXEC_IMAGE"), &pid, &start, &image));
  EXPECT_EQ(pid, static_cast<uint32_t>(getpid()));
  EXPECT_EQ(image, 0u);
  // As the next image of this process would find it.
  EXPECT_EQ(TakeExecImageNumber(), 1u);
  EXPECT_EQ(TakeExecImageNumber(), 2u);
  unsetenv("ROCTRACE_EXEC_IMAGE");
}

}  // namespace
}  // namespace roctrace
