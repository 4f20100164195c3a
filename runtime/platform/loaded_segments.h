// The readable segments of every loaded object, for reading argument strings
// that live in shared libraries (their string literals) without a system
// call.
//
// An object can be unloaded (dlclose) by another thread at any moment, so a
// segment is only read while the loader's list lock is held: the lock
// dl_iterate_phdr takes is the one dlclose holds while it unmaps objects. The
// segments are cached, sorted, and the cache is valid while the loader's
// counters of objects added and removed (dlpi_adds, dlpi_subs, read under
// that lock) are those it was built at; any dlopen or dlclose that maps or
// unmaps an object changes them. A lookup is then one step of
// dl_iterate_phdr (the lock, one callback) and a binary search, instead of a
// walk over every loaded object.
#ifndef RUNTIME_PLATFORM_LOADED_SEGMENTS_H_
#define RUNTIME_PLATFORM_LOADED_SEGMENTS_H_

#include <cstddef>

namespace roctracer::platform {

// When `p` lies in a readable segment of a loaded object, calls
// visit(p, span, ctx) with the loader's lock held (span: bytes of that
// segment from p on) and returns true; false otherwise (also when the cache
// could not be built: out of memory, or objects loaded or unloaded during
// every attempt).
bool VisitLoadedSegment(const void* p,
                        void (*visit)(const char* p, size_t span, void* ctx),
                        void* ctx) noexcept;

// How often the segment cache was rebuilt (for tests: a dlopen or dlclose
// must cause one, a lookup must not).
size_t LoadedSegmentCacheBuilds() noexcept;

}  // namespace roctracer::platform

#endif  // RUNTIME_PLATFORM_LOADED_SEGMENTS_H_
