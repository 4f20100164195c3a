// const char* (a string the printer may read) vs char* (a buffer it must not).
extern "C" {
int module_load(const char* path);
const char* status_string(int status);
int device_name(char* name, int len, int device);
}
