// Smoke test of the HIP-on-CUDA mapping: every mapped host call is made once,
// a plain and a templated kernel are launched through hipLaunchKernelGGL, the
// mask-less warp shuffles and votes and dynamic LDS beyond 48 KiB are used,
// and the results are checked on the host. Exit status 0 means every check passed.
//
//   nvcc -x cu -arch=sm_90 -I runtime/include/ave/hip_on_cuda
//        runtime/tests/hip_on_cuda_smoke.hip -o hip_on_cuda_smoke
//   ./hip_on_cuda_smoke
#include <cstdio>
#include <hip/hip_runtime.h>
#include <vector>

#define CHECK_HIP(call)                                                                            \
  do {                                                                                             \
    hipError_t error_ = (call);                                                                    \
    if (error_ != hipSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,               \
                   hipGetErrorString(error_), hipGetErrorName(error_));                            \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__global__ void scale(float *out, const float *in, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * factor;
}

template <typename T, int Step> __global__ void fill_half_ramp(T *out, int n) {
  int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  if (i < n)
    out[i] = __float2half(static_cast<float>(i * Step));
}

__global__ void to_bf16(__hip_bfloat16 *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __float2bfloat16(in[i]);
}

__global__ void record_warp_size(int *out) { *out = warpSize; }

// HIP's mask-less shuffles and votes, one record of 8 ints per thread.
__global__ void warp_functions(int *out, double *wide) {
  int t = threadIdx.x;
  int *r = out + 8 * t;
  r[0] = __shfl(t * 10, 3);      // lane 3 of this warp
  r[1] = __shfl_up(t, 1u);       // t - 1, lane 0 keeps its own
  r[2] = __shfl_down(t, 2u, 16); // within 16-lane groups
  r[3] = __shfl_xor(t, 5);       // lane ^ 5
  r[4] = __all(t < 1000) + 2 * __any(t == 40) + 4 * __all(t % 2 == 0);
  unsigned long long ballot = __ballot(t % 3 == 0);
  r[5] = static_cast<int>(ballot & 0xffffffffu);
  r[6] = static_cast<int>(ballot >> 32);
  r[7] = static_cast<int>(__lane_id());
  wide[t] = __shfl_xor(static_cast<double>(t) + 0.5, 1);
}

// Dynamic LDS beyond the default 48 KiB, after hipFuncSetAttribute.
__global__ void dynamic_shared_sum(int *out, int words) {
  extern __shared__ int words_of_lds[];
  for (int i = threadIdx.x; i < words; i += blockDim.x)
    words_of_lds[i] = i;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long sum = 0;
    for (int i = 0; i < words; ++i)
      sum += words_of_lds[i];
    *out = static_cast<int>(sum % 1000003);
  }
}

// Expected record of thread t of a 64-thread block on 32-lane warps.
bool warpRecordOk(int t, const int *r, double wide) {
  int lane = t % 32, base = t - lane;
  int ballot = 0;
  for (int l = 0; l < 32; ++l)
    ballot |= (base + l) % 3 == 0 ? 1 << l : 0;
  int vote = 1 + 2 * (base == 32) + 0;
  return r[0] == (base + 3) * 10 && r[1] == (lane == 0 ? t : t - 1) &&
         r[2] == (lane % 16 < 14 ? t + 2 : t) && r[3] == base + (lane ^ 5) && r[4] == vote &&
         r[5] == ballot && r[6] == 0 && r[7] == lane && wide == (base + (lane ^ 1)) + 0.5;
}

int checkWarpFunctions() {
  int *records = nullptr;
  double *wide = nullptr;
  CHECK_HIP(hipMalloc(&records, 64 * 8 * sizeof(int)));
  CHECK_HIP(hipMalloc(&wide, 64 * sizeof(double)));
  hipLaunchKernelGGL(warp_functions, dim3(1), dim3(64), 0, 0, records, wide);
  CHECK_HIP(hipGetLastError());
  std::vector<int> host(64 * 8);
  std::vector<double> hostWide(64);
  CHECK_HIP(hipMemcpy(host.data(), records, host.size() * sizeof(int), hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(hostWide.data(), wide, 64 * sizeof(double), hipMemcpyDeviceToHost));
  for (int t = 0; t < 64; ++t)
    if (!warpRecordOk(t, &host[8 * t], hostWide[t])) {
      std::fprintf(stderr, "warp_functions: thread %d: %d %d %d %d %d %d %d %d %f\n", t,
                   host[8 * t], host[8 * t + 1], host[8 * t + 2], host[8 * t + 3], host[8 * t + 4],
                   host[8 * t + 5], host[8 * t + 6], host[8 * t + 7], hostWide[t]);
      return 1;
    }
  CHECK_HIP(hipFree(records));
  CHECK_HIP(hipFree(wide));

  const int words = 96 * 1024 / 4;
  int *sum = nullptr;
  CHECK_HIP(hipMalloc(&sum, sizeof(int)));
  CHECK_HIP(hipFuncSetAttribute(reinterpret_cast<const void *>(dynamic_shared_sum),
                                hipFuncAttributeMaxDynamicSharedMemorySize, words * 4));
  hipLaunchKernelGGL(dynamic_shared_sum, dim3(1), dim3(256), words * 4, 0, sum, words);
  CHECK_HIP(hipGetLastError());
  int got = -1;
  CHECK_HIP(hipMemcpy(&got, sum, sizeof(int), hipMemcpyDeviceToHost));
  long long want = (static_cast<long long>(words) * (words - 1) / 2) % 1000003;
  if (got != want) {
    std::fprintf(stderr, "dynamic_shared_sum: %d, expected %lld\n", got, want);
    return 1;
  }
  CHECK_HIP(hipFree(sum));
  return 0;
}

int main() {
  int count = 0;
  CHECK_HIP(hipGetDeviceCount(&count));
  int device = -1;
  CHECK_HIP(hipGetDevice(&device));
  hipDeviceProp_t prop;
  CHECK_HIP(hipGetDeviceProperties(&prop, device));
  std::printf("device %d/%d: %s arch %s warpSize %d SMs %d clock %d kHz LDS/block %zu\n", device,
              count, prop.name, prop.gcnArchName, prop.warpSize, prop.multiProcessorCount,
              prop.clockRate, prop.sharedMemPerBlock);
  if (prop.warpSize != 32 || prop.gcnArchName[0] != 's' || prop.clockRate <= 0) {
    std::fprintf(stderr, "unexpected device properties\n");
    return 1;
  }
  if (hipGetDeviceProperties(nullptr, device) != hipErrorInvalidValue) {
    std::fprintf(stderr, "null prop must give hipErrorInvalidValue\n");
    return 1;
  }

  const int n = 1000;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i)
    host[i] = static_cast<float>(i);
  float *in = nullptr, *out = nullptr;
  CHECK_HIP(hipMalloc(&in, n * sizeof(float)));
  CHECK_HIP(hipMalloc(&out, n * sizeof(float)));
  CHECK_HIP(hipMemset(out, 0, n * sizeof(float)));
  CHECK_HIP(hipMemcpy(in, host.data(), n * sizeof(float), hipMemcpyHostToDevice));

  hipStream_t stream;
  CHECK_HIP(hipStreamCreate(&stream));
  hipEvent_t start, stop;
  CHECK_HIP(hipEventCreate(&start));
  CHECK_HIP(hipEventCreateWithFlags(&stop, hipEventDefault));
  CHECK_HIP(hipEventRecord(start, stream));
  hipLaunchKernelGGL(scale, dim3((n + 255) / 256), dim3(256), 0, stream, out, in, 2.0f, n);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipEventRecord(stop, stream));
  CHECK_HIP(hipEventSynchronize(stop));
  float milliseconds = -1.0f;
  CHECK_HIP(hipEventElapsedTime(&milliseconds, start, stop));
  CHECK_HIP(hipStreamSynchronize(stream));
  std::vector<float> result(n, -1.0f);
  CHECK_HIP(hipMemcpyAsync(result.data(), out, n * sizeof(float), hipMemcpyDeviceToHost, stream));
  CHECK_HIP(hipStreamSynchronize(stream));
  for (int i = 0; i < n; ++i)
    if (result[i] != 2.0f * static_cast<float>(i)) {
      std::fprintf(stderr, "scale: out[%d] = %f, expected %f\n", i, result[i], 2.0f * i);
      return 1;
    }

  __half *halves = nullptr;
  CHECK_HIP(hipMalloc(&halves, n * sizeof(__half)));
  hipLaunchKernelGGL(HIP_KERNEL_NAME(fill_half_ramp<__half, 2>), dim3((n + 127) / 128), dim3(128),
                     0, 0, halves, n);
  CHECK_HIP(hipGetLastError());
  std::vector<__half> host_halves(n);
  CHECK_HIP(hipMemcpy(host_halves.data(), halves, n * sizeof(__half), hipMemcpyDeviceToHost));
  for (int i = 0; i < 1000; i += 37)
    if (__half2float(host_halves[i]) != static_cast<float>(2 * i)) {
      std::fprintf(stderr, "fill_half_ramp: out[%d] = %f\n", i, __half2float(host_halves[i]));
      return 1;
    }

  __hip_bfloat16 *bf16s = nullptr;
  CHECK_HIP(hipMalloc(&bf16s, n * sizeof(__hip_bfloat16)));
  hipLaunchKernelGGL(to_bf16, dim3((n + 255) / 256), dim3(256), 0, 0, bf16s, in, n);
  std::vector<__hip_bfloat16> host_bf16s(n);
  CHECK_HIP(hipMemcpy(host_bf16s.data(), bf16s, n * sizeof(__hip_bfloat16), hipMemcpyDefault));
  if (__bfloat162float(host_bf16s[3]) != 3.0f || __bfloat162float(host_bf16s[256]) != 256.0f) {
    std::fprintf(stderr, "to_bf16: wrong conversion\n");
    return 1;
  }

  int *warp = nullptr;
  CHECK_HIP(hipMalloc(&warp, sizeof(int)));
  hipLaunchKernelGGL(record_warp_size, dim3(1), dim3(1), 0, 0, warp);
  int device_warp = 0;
  CHECK_HIP(hipMemcpy(&device_warp, warp, sizeof(int), hipMemcpyDeviceToHost));
  CHECK_HIP(hipDeviceSynchronize());
  if (device_warp != prop.warpSize) {
    std::fprintf(stderr, "device warpSize %d != prop.warpSize %d\n", device_warp, prop.warpSize);
    return 1;
  }

  // An error path: a launch with too many threads per block must be reported.
  hipLaunchKernelGGL(record_warp_size, dim3(1), dim3(4096), 0, 0, warp);
  if (hipGetLastError() == hipSuccess) {
    std::fprintf(stderr, "oversized launch was not reported\n");
    return 1;
  }

  if (checkWarpFunctions() != 0)
    return 1;

  float *pinned = nullptr;
  CHECK_HIP(hipHostMalloc(&pinned, 16 * sizeof(float)));
  CHECK_HIP(hipMemsetAsync(out, 0, 16 * sizeof(float), stream));
  CHECK_HIP(hipMemcpyAsync(pinned, out, 16 * sizeof(float), hipMemcpyDeviceToHost, stream));
  CHECK_HIP(hipStreamSynchronize(stream));
  if (pinned[5] != 0.0f) {
    std::fprintf(stderr, "hipMemsetAsync did not clear\n");
    return 1;
  }
  CHECK_HIP(hipEventQuery(stop));
  CHECK_HIP(hipHostFree(pinned));
  CHECK_HIP(hipEventDestroy(start));
  CHECK_HIP(hipEventDestroy(stop));
  CHECK_HIP(hipStreamDestroy(stream));
  CHECK_HIP(hipFree(warp));
  CHECK_HIP(hipFree(bf16s));
  CHECK_HIP(hipFree(halves));
  CHECK_HIP(hipFree(in));
  CHECK_HIP(hipFree(out));
  std::printf("hip_on_cuda smoke: all checks passed (scale kernel %.3f ms)\n", milliseconds);
  return 0;
}
