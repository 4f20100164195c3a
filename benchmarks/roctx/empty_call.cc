// Baseline for the rocTX benchmark: an exported function that does nothing,
// called through the PLT of another shared library exactly like roctxMarkA.
extern "C" __attribute__((visibility("default"), noinline)) void
bench_empty_call(const char* message) {
  asm volatile("" : : "r"(message) : "memory");
}
