// Structs passed by value, including a nested one and a large one.
typedef struct handle_s { unsigned long handle; } handle_t;
typedef struct dims_s { unsigned x, y, z; } dims_t;
typedef struct launch_s {
  dims_t grid;
  dims_t block;
  char name[8];
  unsigned flags : 4;
} launch_t;

extern "C" {
int queue_submit(handle_t queue, launch_t launch);
}
