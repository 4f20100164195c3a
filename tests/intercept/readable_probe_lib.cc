// A library the readable-memory tests load and unload: its string constant
// lives in one of its segments.
extern "C" __attribute__((visibility("default"))) const char* ProbeText() {
  return "a constant of a library loaded later";
}
