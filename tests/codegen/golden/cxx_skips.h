// C++ constructs a C tracer cannot intercept: each is skipped with a reason.
extern "C" {
int plain(int x);
}
template <class T>
int plain_typed(T* x) { return 0; }
static inline int plain(int x, int y) { return x + y; }  // C++ overload
int mangled_only(int x);  // C++ linkage: exported as a mangled name
namespace impl {
int in_namespace(int x);
}
extern "C" {
int variadic(const char* fmt, ...);
}
