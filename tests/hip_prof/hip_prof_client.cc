// A tool as ROCm's users write it: compiled against HIP's own
// hip/amd_detail/hip_prof_str.h (not our generated header), it reads the
// argument values of real traced HIP calls, `__val` copies included, and
// uses HIP's inline helpers on our data. Prints "FAIL ..." lines and exits 1
// on any wrong value.
#include <hip/hip_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

// hipApiString streams every `__val`; HIP 5.2's header leaves operator<< for
// its structs to the includer (as rtg_tracer and roctracer's tool do).
template <class T, class = std::enable_if_t<
                       (std::is_class<T>::value || std::is_union<T>::value) &&
                       std::is_trivially_copyable<T>::value>>
std::ostream& operator<<(std::ostream& o, const T&) {
  return o << "{...}";
}

// hip_ext.h's declaration (hip_ext.h itself needs hipcc): C++ linkage before
// HIP 6, C linkage from HIP 6 on.
#if HIP_VERSION_MAJOR >= 6
#define HIP_EXT_LINKAGE extern "C"
#else
#define HIP_EXT_LINKAGE
#endif
HIP_EXT_LINKAGE hipError_t hipExtModuleLaunchKernel(
    hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,
    uint32_t globalWorkSizeZ, uint32_t localWorkSizeX, uint32_t localWorkSizeY,
    uint32_t localWorkSizeZ, size_t sharedMemBytes, hipStream_t hStream,
    void** kernelParams, void** extra, hipEvent_t startEvent = nullptr,
    hipEvent_t stopEvent = nullptr, uint32_t flags = 0);

// Our stream printers before HIP's record, as ROCm's roctracer_hip.h orders
// them: from HIP 5.6 on, HIP's hipApiString streams every value through
// roctracer::hip_support::detail::operator<<, which this header declares.
#include <hip_ostream_ops.h>
#define HIP_PROF_HIP_API_STRING 1
#include <hip/amd_detail/hip_prof_str.h>
// Ours after HIP's record: it steps aside for HIP's enum, record and helpers.
#include <roctracer_hip.h>

namespace {

struct Seen {
  uint32_t cid;
  uint32_t phase;
  hip_api_data_t data;  // HIP's type: a prefix of what the tracer passes
  std::string text;     // hipApiString at EXIT
};
std::vector<Seen> g_seen;
int g_failures = 0;

void Callback(uint32_t domain, uint32_t cid, const void* data, void*) {
  if (domain != ACTIVITY_DOMAIN_HIP_API) return;
  const auto* d = static_cast<const hip_api_data_t*>(data);
  Seen s{cid, d->phase, *d, {}};
  if (d->phase == ACTIVITY_API_PHASE_EXIT) {
    const char* text = hipApiString(static_cast<hip_api_id_t>(cid), d);
    s.text = text;
    free(const_cast<char*>(text));  // strdup-ed by hipApiString
  }
  g_seen.push_back(s);
}

const Seen* Find(uint32_t cid, uint32_t phase) {
  for (const auto& s : g_seen) {
    if (s.cid == cid && s.phase == phase) return &s;
  }
  return nullptr;
}

#define EXPECT(cond)                                      \
  do {                                                    \
    if (!(cond)) {                                        \
      std::printf("FAIL line %d: %s\n", __LINE__, #cond); \
      ++g_failures;                                       \
    }                                                     \
  } while (0)

}  // namespace

int main() {
  const uint32_t ops[] = {HIP_API_ID_hipMalloc,
                          HIP_API_ID_hipChooseDevice,
                          HIP_API_ID_hipGetDeviceProperties,
                          HIP_API_ID_hipSetDevice,
                          HIP_API_ID_hipMemcpy,
                          HIP_API_ID_hipExtModuleLaunchKernel};
  for (uint32_t op : ops) {
    if (roctracer_enable_op_callback(ACTIVITY_DOMAIN_HIP_API, op, Callback,
                                     nullptr) != 0) {
      std::printf("FAIL enable op %u: %s\n", op, roctracer_error_string());
      return 1;
    }
  }
  // Our numbering is the installed HIP's: the same ID names the same API.
  EXPECT(std::strcmp(roctracer_op_string(ACTIVITY_DOMAIN_HIP_API,
                                         HIP_API_ID_hipMalloc, 0),
                     hip_api_name(HIP_API_ID_hipMalloc)) == 0);
  EXPECT(
      std::strcmp(roctracer_op_string(ACTIVITY_DOMAIN_HIP_API,
                                      HIP_API_ID_hipExtModuleLaunchKernel, 0),
                  "hipExtModuleLaunchKernel") == 0);

  void* p = reinterpret_cast<void*>(0x1);
  hipError_t malloc_status = hipMalloc(&p, 1234);
  hipDeviceProp_t wanted;
  std::memset(&wanted, 0, sizeof(wanted));
  wanted.major = 7;
  wanted.minor = 3;
  int dev = -5;
  (void)hipChooseDevice(&dev, &wanted);
  hipDeviceProp_t props;
  std::memset(&props, 0x5a, sizeof(props));
  (void)hipGetDeviceProperties(&props, 0);
  (void)hipSetDevice(5);
  char src[8] = {0};
  (void)hipMemcpy(reinterpret_cast<void*>(0x1000), src, 77,
                  hipMemcpyHostToDevice);
  (void)hipExtModuleLaunchKernel(nullptr, 64, 2, 1, 32, 1, 1, 16, nullptr,
                                 nullptr, nullptr);
  roctracer_disable_domain_callback(ACTIVITY_DOMAIN_HIP_API);

  const Seen* s = Find(HIP_API_ID_hipMalloc, ACTIVITY_API_PHASE_ENTER);
  EXPECT(s != nullptr);
  if (s != nullptr) {
    EXPECT(s->data.args.hipMalloc.size == 1234);
    EXPECT(s->data.args.hipMalloc.ptr__val == nullptr);  // not written yet
  }
  s = Find(HIP_API_ID_hipMalloc, ACTIVITY_API_PHASE_EXIT);
  EXPECT(s != nullptr);
  if (s != nullptr) {
    EXPECT(s->data.args.hipMalloc.ptr == &p);
    EXPECT(s->data.args.hipMalloc.size == 1234);
    EXPECT(s->data.args.hipMalloc.ptr__val ==
           p);  // the out-value, after the call
    EXPECT(s->text.find("hipMalloc(") == 0);
    EXPECT(s->text.find("size=1234") != std::string::npos);
    // HIP's own filler agrees with the copy we made.
    hip_api_data_t again = s->data;
    again.args.hipMalloc.ptr__val = nullptr;
    hipApiArgsInit(HIP_API_ID_hipMalloc, &again);
    EXPECT(again.args.hipMalloc.ptr__val == s->data.args.hipMalloc.ptr__val);
  }
  (void)malloc_status;

  s = Find(HIP_API_ID_hipChooseDevice, ACTIVITY_API_PHASE_ENTER);
  EXPECT(s != nullptr);
  if (s != nullptr) {
    EXPECT(s->data.args.hipChooseDevice.prop == &wanted);
    EXPECT(s->data.args.hipChooseDevice.prop__val.major ==
           7);  // an input, at ENTER
    EXPECT(s->data.args.hipChooseDevice.prop__val.minor == 3);
  }
  s = Find(HIP_API_ID_hipChooseDevice, ACTIVITY_API_PHASE_EXIT);
  EXPECT(s != nullptr);
  if (s != nullptr) {
    EXPECT(s->data.args.hipChooseDevice.device == &dev);
    EXPECT(s->data.args.hipChooseDevice.device__val == dev);
    // The struct copy printed field by field, through our printers.
    EXPECT(s->text.find("hipChooseDevice") == 0);
    EXPECT(s->text.find("major=7") != std::string::npos);
    EXPECT(s->text.find("minor=3") != std::string::npos);
  }

  s = Find(HIP_API_ID_hipGetDeviceProperties, ACTIVITY_API_PHASE_EXIT);
  EXPECT(s != nullptr);
  if (s != nullptr) {
    const auto& args = s->data.args.hipGetDeviceProperties;
#if HIP_VERSION_MAJOR >= 6
    // hipGetDevicePropertiesR0600's record names the fields after its
    // prototype.
    EXPECT(args.prop == &props);
    EXPECT(args.deviceId == 0);
    EXPECT(std::memcmp(&args.prop__val, &props, sizeof(props)) == 0);
#else
    EXPECT(args.props == &props);
    EXPECT(args.device == 0);
    EXPECT(std::memcmp(&args.props__val, &props, sizeof(props)) == 0);
#endif
  }

  s = Find(HIP_API_ID_hipSetDevice, ACTIVITY_API_PHASE_ENTER);
  EXPECT(s != nullptr);
  if (s != nullptr) EXPECT(s->data.args.hipSetDevice.deviceId == 5);
  s = Find(HIP_API_ID_hipSetDevice, ACTIVITY_API_PHASE_EXIT);
  EXPECT(s != nullptr);
  if (s != nullptr) EXPECT(s->text == "hipSetDevice(deviceId=5)");

  s = Find(HIP_API_ID_hipMemcpy, ACTIVITY_API_PHASE_EXIT);
  EXPECT(s != nullptr);
  if (s != nullptr) {
    EXPECT(s->data.args.hipMemcpy.dst == reinterpret_cast<void*>(0x1000));
    EXPECT(s->data.args.hipMemcpy.src == src);
    EXPECT(s->data.args.hipMemcpy.sizeBytes == 77);
    EXPECT(s->data.args.hipMemcpy.kind == hipMemcpyHostToDevice);
    EXPECT(s->text.find("sizeBytes=77") != std::string::npos);
  }

  s = Find(HIP_API_ID_hipExtModuleLaunchKernel, ACTIVITY_API_PHASE_ENTER);
  EXPECT(s != nullptr);
  if (s != nullptr) {
    EXPECT(s->data.args.hipExtModuleLaunchKernel.globalWorkSizeX == 64);
    EXPECT(s->data.args.hipExtModuleLaunchKernel.globalWorkSizeY == 2);
    EXPECT(s->data.args.hipExtModuleLaunchKernel.localWorkSizeX == 32);
    EXPECT(s->data.args.hipExtModuleLaunchKernel.sharedMemBytes == 16);
  }

  std::printf("%zu callbacks, %d failures\n", g_seen.size(), g_failures);
  return g_failures == 0 ? 0 : 1;
}
