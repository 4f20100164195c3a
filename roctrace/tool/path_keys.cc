#include "roctrace/tool/path_keys.h"

#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <utility>

namespace roctrace {
namespace {

using GetEnv = std::function<const char*(const char*)>;

// The first of `names` set in the environment, or nullptr.
const char* FirstSet(const GetEnv& getenv,
                     std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (const char* v = getenv(name)) return v;
  }
  return nullptr;
}

// What MPI launchers and batch systems put in the environment.
const char* RankVariable(const GetEnv& getenv) {
  return FirstSet(getenv, {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                           "MV2_COMM_WORLD_RANK", "SLURM_PROCID"});
}
const char* SizeVariable(const GetEnv& getenv) {
  return FirstSet(getenv, {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                           "MV2_COMM_WORLD_SIZE", "SLURM_NTASKS"});
}

// The children of `ppid`, as /proc lists them (its main thread's).
size_t ChildCount(uint32_t ppid) {
  const std::string id = std::to_string(ppid);
  std::ifstream in("/proc/" + id + "/task/" + id + "/children");
  size_t n = 0;
  for (long child; in >> child;) ++n;
  return n;
}

std::string LaunchText(const GetEnv& getenv, const char* format_variable,
                       const char* default_format) {
  static const time_t kFirstCall = time(nullptr);
  time_t when = kFirstCall;
  if (const char* t = getenv("ROCTRACE_LAUNCH_TIME")) {
    when = static_cast<time_t>(std::strtoll(t, nullptr, 10));
  }
  const char* format = getenv(format_variable);
  struct tm local;
  char text[512];
  if (localtime_r(&when, &local) == nullptr ||
      strftime(text, sizeof(text), format != nullptr ? format : default_format,
               &local) == 0) {
    return "";
  }
  return text;
}

// A command-line word as a path part.
std::string PathWord(std::string w) {
  const size_t a = w.find_first_not_of(" \t\r\n\v\f");
  const size_t b = w.find_last_not_of(" \t\r\n\v\f");
  w = a == std::string::npos ? "" : w.substr(a, b - a + 1);
  for (char& c : w) {
    if (c == '/') c = '_';
  }
  w.erase(0, w.find_first_not_of('.'));
  w.erase(0, w.find_first_not_of('_'));
  return w;
}

// An environment variable's value as a path part.
std::string EnvWord(const char* value) {
  std::string v = value != nullptr ? value : "";
  for (char strip : {'\t', ' ', '/'}) {
    v.erase(0, v.find_first_not_of(strip));
    for (char& c : v) {
      if (c == strip) c = '_';
    }
  }
  return v;
}

struct Keys {
  uint32_t pid, ppid;
  const std::string& hostname;
  const GetEnv& getenv;
  std::vector<std::string> words;  // the command line as path parts
  std::string tag;

  // The value of `key`; false when it is not a key.
  bool Value(const std::string& key, std::string* out) const {
    if (key == "pid") {
      *out = std::to_string(pid);
    } else if (key == "ppid") {
      *out = std::to_string(ppid);
    } else if (key == "hostname") {
      *out = hostname;
    } else if (key == "pgid") {
      *out = std::to_string(getpgid(static_cast<pid_t>(pid)));
    } else if (key == "psid") {
      *out = std::to_string(getsid(static_cast<pid_t>(pid)));
    } else if (key == "psize") {
      *out = std::to_string(ChildCount(ppid));
    } else if (key == "rank") {
      const char* v = RankVariable(getenv);
      *out = v != nullptr ? v : "0";
    } else if (key == "size") {
      const char* v = SizeVariable(getenv);
      *out = v != nullptr ? v : "1";
    } else if (key == "nid") {
      const char* v = RankVariable(getenv);
      *out = v != nullptr ? v : std::to_string(pid);
    } else if (key == "job") {
      const char* v = FirstSet(
          getenv, {"SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID", "FLUX_JOB_ID"});
      *out = v != nullptr ? v : "0";
    } else if (key == "launch_date") {
      *out = LaunchText(getenv, "ROCPROF_DATE_FORMAT", "%F");
    } else if (key == "launch_time") {
      *out = LaunchText(getenv, "ROCPROF_TIME_FORMAT", "%F_%H.%M");
    } else if (key == "tag") {
      *out = tag;
    } else if (key == "argv" || key == "args" || key == "argt") {
      // %argt% is the tag then %args%, with no '_' between (rocprofv3's).
      *out = key == "argt" ? tag : "";
      const size_t first = key == "argv" ? 0 : 1;
      for (size_t i = first; i < words.size(); ++i) {
        *out += (i > first ? "_" : "") + words[i];
      }
    } else if (key.size() > 3 && key.compare(0, 3, "arg") == 0 &&
               key.find_first_not_of("0123456789", 3) == std::string::npos) {
      const size_t n = std::strtoul(key.c_str() + 3, nullptr, 10);
      *out = n < words.size() ? words[n] : "";
    } else {
      return false;
    }
    return true;
  }

  // %argN% beyond the command line: removed with the separators after it.
  bool MissingArg(const std::string& key) const {
    return key.size() > 3 && key.compare(0, 3, "arg") == 0 &&
           key.find_first_not_of("0123456789", 3) == std::string::npos &&
           std::strtoul(key.c_str() + 3, nullptr, 10) >= words.size();
  }
};

// The environment key at `at` ("%env{NAME}%", "$ENV{NAME}", "%q{NAME}"):
// its length and the variable's name; 0 when there is none.
size_t EnvKey(const std::string& s, size_t at, std::string* name) {
  for (const char* open : {"%env{", "%ENV{", "$env{", "$ENV{", "%q{"}) {
    const std::string o = open;
    if (s.compare(at, o.size(), o) != 0) continue;
    const size_t close = s.find('}', at + o.size());
    if (close == std::string::npos) return 0;
    *name = s.substr(at + o.size(), close - at - o.size());
    const bool percent_pair = o[0] == '%' && o != "%q{";
    if (percent_pair) {
      if (close + 1 >= s.size() || s[close + 1] != '%') return 0;
      return close + 2 - at;
    }
    return close + 1 - at;
  }
  return 0;
}

}  // namespace

std::vector<std::string> ProcessCommandLine(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)),
                         std::istreambuf_iterator<char>());
  std::vector<std::string> words;
  for (size_t at = 0; at < text.size();) {
    const size_t end = text.find('\0', at);
    words.push_back(text.substr(at, end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return words;
}

std::string ExpandPathKeys(const std::string& pattern, uint32_t pid,
                           uint32_t ppid, const std::string& hostname,
                           const GetEnv& getenv,
                           const std::vector<std::string>& command) {
  Keys keys{pid, ppid, hostname, getenv, {}, {}};
  std::vector<std::string> words = command;
  if (words.size() > 1 && words[1] == "--") words.erase(words.begin() + 1);
  if (!words.empty()) {
    const std::string& first = words[0];
    keys.tag = first.substr(first.rfind('/') + 1);
  }
  for (std::string& w : words) keys.words.push_back(PathWord(w));

  std::string out;
  for (size_t i = 0; i < pattern.size();) {
    const char c = pattern[i];
    std::string name, value;
    if (const size_t n = EnvKey(pattern, i, &name)) {
      out += EnvWord(getenv(name.c_str()));
      i += n;
      continue;
    }
    if (c == '%' || c == '{') {
      const size_t close = pattern.find(c == '%' ? '%' : '}', i + 1);
      if (close != std::string::npos) {
        const std::string key = pattern.substr(i + 1, close - i - 1);
        if (keys.MissingArg(key)) {
          i = pattern.find_first_not_of("-/_", close + 1);
          if (i == std::string::npos) i = pattern.size();
          continue;
        }
        if (keys.Value(key, &value)) {
          out += value;
          i = close + 1;
          continue;
        }
      }
      // rocprofv3's one-letter shorthands.
      static const std::pair<char, const char*> kShort[] = {{'h', "hostname"},
                                                            {'p', "pid"},
                                                            {'j', "job"},
                                                            {'r', "rank"},
                                                            {'s', "size"}};
      if (c == '%' && i + 1 < pattern.size()) {
        bool found = false;
        for (const auto& [letter, key] : kShort) {
          if (pattern[i + 1] == letter && keys.Value(key, &value)) {
            out += value;
            i += 2;
            found = true;
            break;
          }
        }
        if (found) continue;
      }
    }
    out.push_back(c);
    ++i;
  }
  return out;
}

std::string OutputPrefix(const std::string& dir, const std::string& file,
                         const std::string& base_dir, uint32_t pid,
                         uint32_t ppid, const std::string& hostname,
                         const GetEnv& getenv,
                         const std::vector<std::string>& command) {
  auto expand = [&](std::string pattern) {
    for (const char* key : {"%cwd%", "{cwd}"}) {
      for (size_t at; (at = pattern.find(key)) != std::string::npos;) {
        pattern.replace(at, 5, base_dir);
      }
    }
    return ExpandPathKeys(pattern, pid, ppid, hostname, getenv, command);
  };
  const std::string f = expand(file);
  if (!f.empty() && f[0] == '/') return f;
  std::string d = expand(dir);
  while (d.compare(0, 2, "./") == 0) d.erase(0, 2);
  if (d.empty() || d == ".") {
    d = base_dir;
  } else if (d[0] != '/') {
    d = base_dir + "/" + d;
  }
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  return d + "/" + f;
}

}  // namespace roctrace
