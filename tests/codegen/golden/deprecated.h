// Deprecated functions, through an attribute hidden in a macro.
#define DEPRECATED(msg) __attribute__((deprecated(msg)))
extern "C" {
DEPRECATED("use ctx_current") int ctx_get(int* ctx);
int ctx_current(int* ctx);
}
