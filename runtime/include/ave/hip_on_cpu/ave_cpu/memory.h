// Device memory on the host, laid out so that a wrong index faults instead of
// silently reading or corrupting a neighbour: every hipMalloc gets its own
// mapping, with a PROT_NONE guard page before it and one right after its last
// byte (the buffer ends where the back guard begins, up to 16-byte alignment),
// and new memory is filled with 0xFF bytes (NaN in every float type) like an
// uninitialised GPU buffer that happens to hold garbage. hipFree unmaps, so a
// use after free faults too. The table of live buffers serves hipMemcpy's
// checks and the fault messages ("8 bytes past the end of a 4096-byte
// buffer").
#pragma once

#include "errors.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace ave::cpu {

struct Allocation {
  uintptr_t Base = 0;
  std::size_t Bytes = 0;
  uintptr_t Mapping = 0;
  std::size_t MappingBytes = 0;
  bool Host = false; // hipHostMalloc
};

class DeviceMemory {
public:
  static constexpr std::size_t Alignment = 16;

  hipError_t allocate(void **Out, std::size_t Bytes, bool Host) {
    if (!Out)
      return hipErrorInvalidValue;
    *Out = nullptr;
    if (Bytes == 0)
      return hipSuccess;
    std::size_t Page = pageSize();
    std::size_t Data = (Bytes + Page - 1) / Page * Page;
    if (Data < Bytes || Data > (std::size_t(1) << 46))
      return hipErrorOutOfMemory;
    std::size_t Total = Data + 2 * Page;
    void *Map = mmap(nullptr, Total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (Map == MAP_FAILED)
      return hipErrorOutOfMemory;
    uintptr_t Start = uintptr_t(Map) + Page;
    if (mprotect(reinterpret_cast<void *>(Start), Data, PROT_READ | PROT_WRITE) != 0) {
      munmap(Map, Total);
      return hipErrorOutOfMemory;
    }
    std::size_t Rounded = (Bytes + Alignment - 1) / Alignment * Alignment;
    uintptr_t Base = Start + Data - Rounded;
    std::memset(reinterpret_cast<void *>(Base), 0xFF, Rounded);
    std::lock_guard<std::mutex> Lock(Mutex);
    Table[Base] = {Base, Bytes, uintptr_t(Map), Total, Host};
    *Out = reinterpret_cast<void *>(Base);
    return hipSuccess;
  }

  hipError_t release(void *Pointer, bool Host) {
    if (!Pointer)
      return hipSuccess;
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Table.find(uintptr_t(Pointer));
    if (It == Table.end() || It->second.Host != Host)
      return hipErrorInvalidValue;
    munmap(reinterpret_cast<void *>(It->second.Mapping), It->second.MappingBytes);
    Table.erase(It);
    return hipSuccess;
  }

  // The live buffer holding all of [Pointer, Pointer + Bytes), if any.
  std::optional<Allocation> find(const void *Pointer, std::size_t Bytes) {
    std::lock_guard<std::mutex> Lock(Mutex);
    const Allocation *A = containing(uintptr_t(Pointer));
    if (!A || uintptr_t(Pointer) + Bytes > A->Base + A->Bytes)
      return std::nullopt;
    return *A;
  }

  // Where Address lies relative to the buffers: for a fault message.
  std::string describe(uintptr_t Address) {
    std::lock_guard<std::mutex> Lock(Mutex);
    for (const auto &[Base, A] : Table) {
      if (Address < A.Mapping || Address >= A.Mapping + A.MappingBytes)
        continue;
      if (Address >= A.Base + A.Bytes)
        return std::to_string(Address - (A.Base + A.Bytes)) + " bytes past the end of the " +
               std::to_string(A.Bytes) + "-byte buffer at " + hex(A.Base);
      if (Address < A.Base)
        return std::to_string(A.Base - Address) + " bytes before the start of the " +
               std::to_string(A.Bytes) + "-byte buffer at " + hex(A.Base);
    }
    return "not in any live hipMalloc buffer (a stray or freed pointer)";
  }

  static std::string hex(uintptr_t Value) {
    static const char Digits[] = "0123456789abcdef";
    std::string Out;
    do {
      Out.insert(Out.begin(), Digits[Value & 15]);
      Value >>= 4;
    } while (Value);
    return "0x" + Out;
  }

  static std::size_t pageSize() {
    static const std::size_t Page = std::size_t(sysconf(_SC_PAGESIZE));
    return Page;
  }

private:
  const Allocation *containing(uintptr_t Address) const {
    auto It = Table.upper_bound(Address);
    if (It == Table.begin())
      return nullptr;
    --It;
    const Allocation &A = It->second;
    return Address < A.Base + A.Bytes ? &A : nullptr;
  }

  std::mutex Mutex;
  std::map<uintptr_t, Allocation> Table;
};

inline DeviceMemory &deviceMemory() {
  static DeviceMemory *Memory = new DeviceMemory; // never destroyed: buffers live until exit
  return *Memory;
}

} // namespace ave::cpu
