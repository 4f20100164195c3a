// The readable segments of the objects loaded at program start (the program,
// its DT_NEEDED closure, LD_PRELOAD libraries, the vDSO, the dynamic linker):
// glibc never unloads them, so strings in them are read without the loader's
// lock, like the main program's.
//
// They are the prefix of the loader's list of objects (objects are appended
// in load order and startup loads everything before any code runs): walking
// the list from the program, an object belongs to the prefix while its name
// (SONAME, or the file name it was found under) is one that the program or an
// object before it in the list needs, or one of the initial LD_PRELOAD names.
// The first object that matches none ends the prefix; everything after it
// (objects loaded later by dlopen) may be unloaded and goes through the
// locked lookup (loaded_segments.h). Misjudging an object as not started up
// only costs speed.
#ifndef RUNTIME_PLATFORM_STARTUP_OBJECTS_H_
#define RUNTIME_PLATFORM_STARTUP_OBJECTS_H_

#include <cstddef>
#include <cstdint>

namespace roctracer::platform {

// Bytes from `p` on within a readable segment of a startup object; 0 when p
// is in none. `begin`, when given, receives where the segment begins.
size_t StartupObjectSpan(const void* p, uintptr_t* begin = nullptr) noexcept;

// How many objects the prefix holds (for tests).
size_t StartupObjectCount() noexcept;

}  // namespace roctracer::platform

#endif  // RUNTIME_PLATFORM_STARTUP_OBJECTS_H_
