// A stand-in for the Perfetto SDK's <perfetto.h>, only as much of its API as
// rocprofiler-sdk/cxx/perfetto.hpp uses (Debian packages no Perfetto SDK).
// It records what the header hands Perfetto: the categories given to
// PERFETTO_DEFINE_CATEGORIES, and each debug annotation's name and typed
// value, for //tests/sdk:perfetto_header_test to read back.
#ifndef TESTS_SDK_PERFETTO_HEADER_PERFETTO_STUB_PERFETTO_H_
#define TESTS_SDK_PERFETTO_HEADER_PERFETTO_STUB_PERFETTO_H_

#include <cstdint>
#include <deque>
#include <string>

namespace perfetto {

class Category {
 public:
  constexpr explicit Category(const char* name) : name_(name) {}
  constexpr Category SetDescription(const char* description) const {
    Category copy = *this;
    copy.description_ = description;
    return copy;
  }
  constexpr const char* name() const { return name_; }
  constexpr const char* description() const { return description_; }

 private:
  const char* name_;
  const char* description_ = nullptr;
};

// One annotation: its name, which setter was called and with what.
struct DebugAnnotation {
  std::string name;
  std::string type;  // "string", "bool", "int", "uint", "double", "pointer"
  std::string string_value;
  bool bool_value = false;
  int64_t int_value = 0;
  uint64_t uint_value = 0;
  double double_value = 0;
  uint64_t pointer_value = 0;
  int sets = 0;  // value setters called

  void set_name(const std::string& value) { name = value; }
  void set_string_value(const std::string& value) {
    Set("string");
    string_value = value;
  }
  void set_bool_value(bool value) {
    Set("bool");
    bool_value = value;
  }
  void set_int_value(int64_t value) {
    Set("int");
    int_value = value;
  }
  void set_uint_value(uint64_t value) {
    Set("uint");
    uint_value = value;
  }
  void set_double_value(double value) {
    Set("double");
    double_value = value;
  }
  void set_pointer_value(uint64_t value) {
    Set("pointer");
    pointer_value = value;
  }

 private:
  void Set(const char* what) {
    type = what;
    ++sets;
  }
};

struct TrackEvent {
  std::deque<DebugAnnotation> annotations;  // stable addresses
  DebugAnnotation* add_debug_annotations() {
    annotations.emplace_back();
    return &annotations.back();
  }
};

class EventContext {
 public:
  TrackEvent* event() { return &event_; }

 private:
  TrackEvent event_;
};

}  // namespace perfetto

#define PERFETTO_DEFINE_CATEGORIES(...)                         \
  namespace perfetto {                                          \
  namespace stub {                                              \
  constexpr ::perfetto::Category kCategories[] = {__VA_ARGS__}; \
  }                                                             \
  }

#endif  // TESTS_SDK_PERFETTO_HEADER_PERFETTO_STUB_PERFETTO_H_
