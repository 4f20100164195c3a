// 25 hipGetErrorString calls (a plain HIP host program).
#include <hip/hip_runtime_api.h>

int main() {
  for (int i = 0; i < 25; ++i) hipGetErrorString(hipSuccess);
  return 0;
}
