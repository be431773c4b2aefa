// The block's shared memory (LDS). Static __shared__ variables live in the
// ave_shared ELF section (platform.h says why); dynamic shared memory
// (HIP_DYNAMIC_SHARED, extern __shared__ through ave-cpu-c++) is one region at
// a fixed address, so a namespace-scope declaration can take its address
// once. Before each block both are filled with 0xFF bytes (NaN in every float
// type), so a read of an element no thread of this block wrote shows up as
// garbage, as it would on a GPU. The pages of the dynamic region past what the
// launch asked for are PROT_NONE, so an index past the launch's size faults
// (from the first page boundary on; the bytes before it are poisoned).
#pragma once

#include <cstddef>
#include <cstring>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

extern "C" {
// Defined by the linker when any object has an ave_shared section; weak, so a
// program without __shared__ variables still links (both are then null).
extern char __start_ave_shared[] __attribute__((weak, visibility("hidden")));
extern char __stop_ave_shared[] __attribute__((weak, visibility("hidden")));
}

namespace ave::cpu {

class LocalMemory {
public:
  static constexpr std::size_t Capacity = std::size_t(4) << 20;

  unsigned char *dynamicBase() {
    std::call_once(Reserved, [this] { reserve(); });
    return Base;
  }

  // Makes the first Bytes of the dynamic region accessible (rounded up to a
  // page) and the rest PROT_NONE. False if the region could not be mapped.
  bool prepare(std::size_t Bytes) {
    unsigned char *Region = dynamicBase();
    if (!Region)
      return false;
    std::size_t Page = std::size_t(sysconf(_SC_PAGESIZE));
    std::size_t Want = (Bytes + Page - 1) / Page * Page;
    if (Want != Accessible) {
      if (Want > Accessible)
        mprotect(Region + Accessible, Want - Accessible, PROT_READ | PROT_WRITE);
      else
        mprotect(Region + Want, Accessible - Want, PROT_NONE);
      Accessible = Want;
    }
    Requested = Bytes;
    return true;
  }

  void poison() {
    char *Start = __start_ave_shared, *Stop = __stop_ave_shared;
    if (Start && Stop > Start)
      std::memset(Start, 0xFF, std::size_t(Stop - Start));
    if (Base && Accessible)
      std::memset(Base, 0xFF, Accessible);
  }

  // Whether Address is in the dynamic region (for fault messages).
  bool contains(const void *Address) const {
    auto *A = static_cast<const unsigned char *>(Address);
    return Base && A >= Base && A < Base + Capacity;
  }
  std::size_t offsetOf(const void *Address) const {
    return std::size_t(static_cast<const unsigned char *>(Address) - Base);
  }
  std::size_t requested() const { return Requested; }

private:
  void reserve() {
    void *Map =
        mmap(nullptr, Capacity, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    Base = Map == MAP_FAILED ? nullptr : static_cast<unsigned char *>(Map);
  }

  std::once_flag Reserved;
  unsigned char *Base = nullptr;
  std::size_t Accessible = 0;
  std::size_t Requested = 0;
};

inline LocalMemory &localMemory() {
  static LocalMemory *Memory = new LocalMemory; // never destroyed: kernels may run until exit
  return *Memory;
}

} // namespace ave::cpu
