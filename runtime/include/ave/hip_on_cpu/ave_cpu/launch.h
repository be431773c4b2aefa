// hipLaunchKernelGGL's implementation: packs the arguments, converted to the
// kernel's parameter types as a call would convert them, and hands the
// executor a function that calls the kernel with them on each GPU thread.
#pragma once

#include "runtime_api.h"

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

struct ihipStream_t;

namespace ave::cpu {

template <class... Params, class... Args>
void launchKernel(const char *Name, void (*Kernel)(Params...), dim3 Grid, dim3 Block,
                  std::size_t DynamicShared, ihipStream_t *, Args &&...Arguments) {
  static_assert(sizeof...(Params) == sizeof...(Args),
                "hipLaunchKernelGGL: the kernel takes a different number of arguments");
  using Packed = std::tuple<std::remove_cvref_t<Params>...>;
  // Converted exactly as a call converts its arguments.
  Packed Values = [](Params... P) { return Packed(P...); }(std::forward<Args>(Arguments)...);
  struct Call {
    void (*Kernel)(Params...);
    Packed *Values;
  } Context{Kernel, &Values};
  KernelLaunch L;
  L.Name = Name;
  L.Grid = Grid;
  L.Block = Block;
  L.DynamicShared = DynamicShared;
  L.Context = &Context;
  L.Invoke = [](void *Raw) {
    Call *C = static_cast<Call *>(Raw);
    std::apply(C->Kernel, *C->Values);
  };
  launch(L);
}

// The stream argument may be 0, nullptr or a hipStream_t.
template <class... Params, class... Args>
void launchKernel(const char *Name, void (*Kernel)(Params...), dim3 Grid, dim3 Block,
                  std::size_t DynamicShared, int Stream, Args &&...Arguments) {
  (void)Stream;
  launchKernel(Name, Kernel, Grid, Block, DynamicShared, static_cast<ihipStream_t *>(nullptr),
               std::forward<Args>(Arguments)...);
}

// `k<<<grid, block, shared, stream>>>(args...)`: a host compiler cannot
// parse the launch, so the executor's copy of a kernel file spells it
// `::ave::cpu::chevron("k", k, grid, block, shared, stream)(args...)`
// (harness/include/ave/harness/CpuLaunchSyntax.h); it launches as
// hipLaunchKernelGGL does.
template <class... Params> struct ChevronLaunch {
  const char *Name;
  void (*Kernel)(Params...);
  dim3 Grid, Block;
  std::size_t DynamicShared;
  ihipStream_t *Stream;
  template <class... Args> void operator()(Args &&...Arguments) const {
    launchKernel(Name, Kernel, Grid, Block, DynamicShared, Stream,
                 std::forward<Args>(Arguments)...);
  }
};

template <class... Params>
ChevronLaunch<Params...> chevron(const char *Name, void (*Kernel)(Params...), dim3 Grid, dim3 Block,
                                 std::size_t DynamicShared = 0, ihipStream_t *Stream = nullptr) {
  return {Name, Kernel, Grid, Block, DynamicShared, Stream};
}

} // namespace ave::cpu
