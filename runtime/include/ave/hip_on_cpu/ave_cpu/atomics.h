// HIP's atomic functions on host memory through std::atomic_ref (atomic with
// respect to the host threads too). Relaxed order, as on a GPU; the barriers
// and fences order the rest. Each returns the old value.
//
// The GPU threads of a block are fibers that hand over only where they wait
// (fibers.h). A thread spinning on an atomic waits for another thread, so
// the atomics that a spin loop uses hand over when they change nothing: a
// failed atomicCAS, an atomicExch that writes the value already there, and
// an atomicAdd/Sub/Or/Xor of 0 (an atomic read).
#pragma once

#include "runtime_api.h"

#include <atomic>
#include <type_traits>

namespace ave::cpu::detail {

// An atomic that changes nothing lets the other threads run first (above).
inline void yieldIfRead(bool ChangesNothing) {
  if (ChangesNothing)
    yieldThread();
}

template <class T, class Update> T atomicUpdate(T *Address, Update Next) {
  std::atomic_ref<T> Ref(*Address);
  T Old = Ref.load(std::memory_order_relaxed);
  while (!Ref.compare_exchange_weak(Old, Next(Old), std::memory_order_relaxed))
    ;
  return Old;
}

} // namespace ave::cpu::detail

#define AVE_CPU_ATOMIC_ARITH(T)                                                                    \
  inline T atomicAdd(T *Address, T Value) {                                                        \
    ave::cpu::detail::yieldIfRead(Value == static_cast<T>(0));                                     \
    return std::atomic_ref<T>(*Address).fetch_add(Value, std::memory_order_relaxed);               \
  }                                                                                                \
  inline T atomicExch(T *Address, T Value) {                                                       \
    T Old = std::atomic_ref<T>(*Address).exchange(Value, std::memory_order_relaxed);               \
    ave::cpu::detail::yieldIfRead(Old == Value);                                                   \
    return Old;                                                                                    \
  }                                                                                                \
  inline T atomicMin(T *Address, T Value) {                                                        \
    return ave::cpu::detail::atomicUpdate(Address,                                                 \
                                          [&](T Old) { return Value < Old ? Value : Old; });       \
  }                                                                                                \
  inline T atomicMax(T *Address, T Value) {                                                        \
    return ave::cpu::detail::atomicUpdate(Address,                                                 \
                                          [&](T Old) { return Value > Old ? Value : Old; });       \
  }                                                                                                \
  inline T atomicAdd_system(T *Address, T Value) { return atomicAdd(Address, Value); }

#define AVE_CPU_ATOMIC_INTEGER(T)                                                                  \
  AVE_CPU_ATOMIC_ARITH(T)                                                                          \
  inline T atomicSub(T *Address, T Value) {                                                        \
    ave::cpu::detail::yieldIfRead(Value == static_cast<T>(0));                                     \
    return std::atomic_ref<T>(*Address).fetch_sub(Value, std::memory_order_relaxed);               \
  }                                                                                                \
  inline T atomicAnd(T *Address, T Value) {                                                        \
    return std::atomic_ref<T>(*Address).fetch_and(Value, std::memory_order_relaxed);               \
  }                                                                                                \
  inline T atomicOr(T *Address, T Value) {                                                         \
    ave::cpu::detail::yieldIfRead(Value == static_cast<T>(0));                                     \
    return std::atomic_ref<T>(*Address).fetch_or(Value, std::memory_order_relaxed);                \
  }                                                                                                \
  inline T atomicXor(T *Address, T Value) {                                                        \
    ave::cpu::detail::yieldIfRead(Value == static_cast<T>(0));                                     \
    return std::atomic_ref<T>(*Address).fetch_xor(Value, std::memory_order_relaxed);               \
  }                                                                                                \
  inline T atomicCAS(T *Address, T Compare, T Value) {                                             \
    bool Swapped = std::atomic_ref<T>(*Address).compare_exchange_strong(                           \
        Compare, Value, std::memory_order_relaxed);                                                \
    ave::cpu::detail::yieldIfRead(!Swapped);                                                       \
    return Compare;                                                                                \
  }

AVE_CPU_ATOMIC_INTEGER(int)
AVE_CPU_ATOMIC_INTEGER(unsigned)
AVE_CPU_ATOMIC_INTEGER(unsigned long long)
AVE_CPU_ATOMIC_INTEGER(long long)
AVE_CPU_ATOMIC_ARITH(float)
AVE_CPU_ATOMIC_ARITH(double)

#undef AVE_CPU_ATOMIC_INTEGER
#undef AVE_CPU_ATOMIC_ARITH

// ((old >= limit) ? 0 : old + 1) and (old == 0 || old > limit) ? limit : old - 1.
inline unsigned atomicInc(unsigned *Address, unsigned Limit) {
  return ave::cpu::detail::atomicUpdate(Address,
                                        [&](unsigned Old) { return Old >= Limit ? 0u : Old + 1; });
}
inline unsigned atomicDec(unsigned *Address, unsigned Limit) {
  return ave::cpu::detail::atomicUpdate(
      Address, [&](unsigned Old) { return Old == 0 || Old > Limit ? Limit : Old - 1; });
}
