// Out-parameters (writable pointee) vs in-pointers (const pointee) and
// opaque handles (a pointer to an incomplete struct is not an out-param).
typedef struct stream_s* stream_t;
typedef struct props_s { int major; int minor; } props_t;
extern "C" {
int get_count(int* count);
int get_props(props_t* props, int device);
int set_props(const props_t* props);
int stream_sync(stream_t stream);
int stream_create(stream_t* stream);
}
