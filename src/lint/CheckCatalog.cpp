#include "ave/lint/CheckCatalog.h"

namespace ave::lint {

namespace {
constexpr CheckInfo Checks[] = {
    {"ave-invariant", "correctness", "Data-flow invariant violated or unproven",
     "An explicit '#pragma ave assert' or an implicit invariant of the tagged einsum (shared "
     "coordinates agree, stores get the output's coordinates, reductions cover each index once) "
     "fails for some block, thread and iteration, or could not be proven.",
     "Read the counterexample notes: they name the block, thread, loop iteration and element, and "
     "which thread wrote a shared-memory value. Fix the index expression or the annotation."},
    {"ave-lds-race", "correctness", "Shared-memory data race between two threads of a block",
     "Two different threads of one block access the same shared-memory element in the same "
     "barrier interval and at least one of them writes.",
     "Separate the accesses with __syncthreads(), or give each thread its own element. The notes "
     "name both threads and the element."},
    {"ave-global-race", "correctness", "Global-memory data race between two threads",
     "Two threads touch the same element of a global buffer, at least one writing, with nothing "
     "ordering them: two threads of one block in one barrier interval, or threads of different "
     "blocks anywhere in the kernel. Atomics do not conflict with each other, a buffer the "
     "kernel only reads never conflicts, and distinct pointer parameters are assumed not to "
     "alias.",
     "Give each element one writer (index by the global thread id), separate same-block "
     "accesses with __syncthreads(), use atomics for shared counters, or split the kernel where "
     "blocks must wait for each other. The notes name both threads, the launch and every value."},
    {"ave-barrier-divergence", "correctness", "Barrier under thread-dependent control flow",
     "A __syncthreads() that one thread of a block reaches and another does not (a "
     "thread-dependent "
     "condition, loop trip count or early return on the way to it).",
     "Move the barrier out of the thread-dependent branch so that every thread of the block "
     "reaches it the same number of times."},
    {"ave-lds-uninitialized", "correctness", "Shared-memory read that no write can have produced",
     "A read of a shared array at an element that no thread of the block writes before it.",
     "Check the read index against the indices the block stores, and the order of stores and "
     "reads."},
    {"ave-lds-bank-conflict", "performance", "Shared-memory bank conflict within a wavefront",
     "Lanes of one wavefront (gfx942: 32 banks x 4 B, ds_read_b128 served in 8-lane groups; "
     "sm_90: 32 banks x 4 B per warp of 32) access different words of the same bank, so the "
     "access is served in several passes.",
     "Pad the innermost dimension of the array (the fix-it does it where one element of padding "
     "removes the conflict) or swizzle the index."},
    {"ave-lds-capacity", "correctness", "Static shared memory above the target's limit",
     "The kernel's static __shared__ arrays need more bytes than one workgroup may allocate on the "
     "target (gfx942: 64 KiB).",
     "Shrink the tiles or move data to registers or global memory."},
    {"ave-annotation", "annotation", "Malformed or unused ave annotation",
     "An AVE_TAG or '#pragma ave' that does not parse, names something that does not exist, is "
     "outside a kernel, or tags a parameter the kernel never uses.",
     "Fix the annotation at the reported column; see the annotation language in the README."},
};
} // namespace

std::span<const CheckInfo> aveChecks() { return Checks; }

std::string docsAnchor(const CheckInfo &C) { return "docs/lint.md#" + std::string(C.id); }

const CheckInfo *findCheck(std::string_view Id) {
  for (const CheckInfo &C : Checks)
    if (C.id == Id)
      return &C;
  return nullptr;
}

} // namespace ave::lint
