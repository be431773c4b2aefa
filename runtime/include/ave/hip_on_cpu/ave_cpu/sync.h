// Device-side synchronisation: __syncthreads and its _count/_and/_or forms,
// and the memory fences. Each barrier call records its source line, so two
// threads of a block at different __syncthreads are reported as divergent
// (block_sync.h).
#pragma once

#include "runtime_api.h"

#include <atomic>
#include <source_location>

inline void __syncthreads(std::source_location Site = std::source_location::current()) {
  ave::cpu::barrier(ave::cpu::BarrierOp::Sync, 1, Site);
}
inline int __syncthreads_count(int Predicate,
                               std::source_location Site = std::source_location::current()) {
  return ave::cpu::barrier(ave::cpu::BarrierOp::Count, Predicate, Site);
}
inline int __syncthreads_and(int Predicate,
                             std::source_location Site = std::source_location::current()) {
  return ave::cpu::barrier(ave::cpu::BarrierOp::And, Predicate, Site);
}
inline int __syncthreads_or(int Predicate,
                            std::source_location Site = std::source_location::current()) {
  return ave::cpu::barrier(ave::cpu::BarrierOp::Or, Predicate, Site);
}

// A fence is a C++ fence (the host threads may see device memory too).
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }
