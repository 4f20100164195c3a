// HIP 6's way of renaming an API: the header maps the old name to the new
// one by macro; the library keeps exporting the old name for old binaries.
extern "C" {
typedef struct { int fields[4]; } prop_t;
int getPropsR0600(prop_t* props, int device);
int getCount(int* count);
int launchR0600(int n);
}
#define getProps getPropsR0600
#define launch launchR0600
#define NOT_A_RENAME 42
