// The executor's implementation behind runtime_api.h: every bridge function,
// defined weak so that each translation unit including this header may carry
// a copy and the linker keeps one (runtime_api.h says why).
#pragma once

#include "../hip/hip_runtime_api.h"
#include "error_state.h"
#include "executor.h"
#include "gpu_thread_switch.h"
#include "local_memory.h"
#include "memory.h"
#include "runtime_api.h"
#include "settings.h"
#include "thread_context.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <unistd.h>

#define AVE_CPU_WEAK __attribute__((weak))

namespace ave::cpu {

namespace detail {
[[noreturn]] inline void outsideKernel(const char *What) {
  std::fprintf(stderr, "ave-cpu: %s called outside a kernel (no GPU thread runs here)\n", What);
  std::abort();
}
inline BlockSync &currentBlock(const char *What) {
  if (!Current.Block)
    outsideKernel(What);
  return *Current.Block;
}
} // namespace detail

AVE_CPU_WEAK hipError_t recordError(hipError_t Error) { return errors().record(Error); }
AVE_CPU_WEAK hipError_t takeLastError() { return errors().takeLast(); }
AVE_CPU_WEAK hipError_t peekLastError() { return errors().peekLast(); }
AVE_CPU_WEAK hipError_t takePendingError() { return errors().takePending(); }
AVE_CPU_WEAK const char *errorString(hipError_t Error) { return errors().text(Error); }

AVE_CPU_WEAK hipError_t allocate(void **Out, std::size_t Bytes, bool Host) {
  return errors().record(deviceMemory().allocate(Out, Bytes, Host));
}
AVE_CPU_WEAK hipError_t release(void *Pointer, bool Host) {
  return errors().record(deviceMemory().release(Pointer, Host));
}
AVE_CPU_WEAK bool isDeviceRange(const void *Pointer, std::size_t Bytes) {
  return Bytes == 0 || deviceMemory().find(Pointer, Bytes).has_value();
}

AVE_CPU_WEAK hipError_t deviceProperties(hipDeviceProp_t *Prop) {
  std::string Ignored;
  Settings S = readSettings(Ignored);
  std::memset(Prop, 0, sizeof(*Prop));
  std::strcpy(Prop->name, "ave CPU executor");
  std::strcpy(Prop->gcnArchName, "ave-cpu");
  long Pages = sysconf(_SC_PHYS_PAGES);
  Prop->totalGlobalMem = Pages > 0 ? size_t(Pages) * DeviceMemory::pageSize() : 0;
  Prop->sharedMemPerBlock = S.LdsBytes;
  Prop->sharedMemPerBlockOptin = S.LdsBytes;
  Prop->sharedMemPerMultiprocessor = S.LdsBytes;
  Prop->warpSize = int(S.WaveSize);
  Prop->maxThreadsPerBlock = 1024;
  Prop->maxThreadsPerMultiProcessor = 1024;
  for (int D = 0; D < 3; ++D)
    Prop->maxThreadsDim[D] = 1024;
  Prop->maxGridSize[0] = 2147483647;
  Prop->maxGridSize[1] = Prop->maxGridSize[2] = 65535;
  Prop->multiProcessorCount = int(std::thread::hardware_concurrency());
  return hipSuccess;
}

AVE_CPU_WEAK double nowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

AVE_CPU_WEAK hipError_t launch(const KernelLaunch &Launch) {
  return Executor::instance().launch(Launch);
}
AVE_CPU_WEAK void *dynamicSharedBase() { return localMemory().dynamicBase(); }

AVE_CPU_WEAK int barrier(BarrierOp Op, int Predicate, const std::source_location &Site) {
  return detail::currentBlock("__syncthreads").barrier(Current.Linear, Op, Predicate, Site);
}
AVE_CPU_WEAK void collective(bool Masked, uint64_t Mask, const char *Name,
                             const std::source_location &Site, CombineFn Combine,
                             const void *Shared, const LaneSlot &Slot) {
  detail::currentBlock(Name).collective(Current.Linear, Masked, Mask, Name, Site, Combine, Shared,
                                        Slot);
}
AVE_CPU_WEAK uint64_t liveLanes() {
  return detail::currentBlock("__activemask").liveLanes(Current.Linear);
}
AVE_CPU_WEAK void yieldThread() { letOtherGpuThreadsRun(); }
AVE_CPU_WEAK void failBlock(hipError_t Code, const char *Message) {
  detail::currentBlock("a device function").fail(Code, Message);
  throw BlockAborted{};
}

} // namespace ave::cpu

#undef AVE_CPU_WEAK
