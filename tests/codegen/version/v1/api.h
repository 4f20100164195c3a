// Release 1 of a synthetic API.
extern "C" {
int a_init(void);
int b_open(const char* path);
int c_read(int fd, void* buffer);
int d_close(int fd);
int e_legacy(int fd);
}
