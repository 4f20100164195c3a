// How the library was compiled, kept in the file itself: users build it
// with the README's commands, and a library built without optimisation costs
// several times more per traced call (BENCHMARKS.md). The install test, and
// anyone with `readelf -p .roctracer.build <file>`, reads it back.
//
// `retain` keeps the section through --gc-sections, which optimised links
// use; `used` keeps the compiler from dropping an unreferenced constant.
#if defined(__OPTIMIZE__)
#define ROCTRACER_BUILD_MODE "optimized"
#else
#define ROCTRACER_BUILD_MODE "unoptimized"
#endif

namespace {
[[gnu::used, gnu::retain,
  gnu::section(".roctracer.build")]] const char kBuildMode[] =
    "roctracer build: " ROCTRACER_BUILD_MODE;
}  // namespace
