// Default arguments behind a macro, as HIP's __dparm(x) does: libclang's
// token extent of such a parameter stops inside the macro.
#ifdef __cplusplus
#define DPARM(x) = x
#else
#define DPARM(x)
#endif
typedef struct stream_s* stream_t;
extern "C" {
int memcpy_async(void* dst, const void* src, unsigned long n,
                 stream_t stream DPARM(0), unsigned flags DPARM(1u << 2));
int fill(int values[4], int count DPARM(4));
}
