// Release 2: reordered, d_close's parameter type changed, e_legacy removed,
// f_new and g_newer added.
extern "C" {
int d_close(long fd);
int c_read(int fd, void* buffer);
int a_init(void);
int f_new(int flags);
int b_open(const char* path);
int g_newer(void* p);
}
