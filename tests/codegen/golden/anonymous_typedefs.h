// Anonymous enums and structs named only through a typedef.
typedef enum { MODE_A = 0, MODE_B = 7 } mode_t_;
typedef struct { int width; int height; mode_t_ mode; } extent_t;
extern "C" {
int make_extent(extent_t extent, mode_t_ mode, extent_t* out);
}
