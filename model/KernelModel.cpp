// Names of the model's enumerations, as JSON and text print them.

#include "ave/model/KernelModel.h"

namespace ave::model {

const char *loopKindName(LoopKind K) {
  switch (K) {
  case LoopKind::For:
    return "for";
  case LoopKind::RangeFor:
    return "range_for";
  case LoopKind::While:
    return "while";
  case LoopKind::Do:
    return "do";
  }
  return "unknown";
}

const char *syncKindName(SyncKind K) {
  switch (K) {
  case SyncKind::Barrier:
    return "barrier";
  case SyncKind::Fence:
    return "fence";
  }
  return "unknown";
}

const char *intrinsicKindName(IntrinsicKind K) {
  switch (K) {
  case IntrinsicKind::Mfma:
    return "mfma";
  case IntrinsicKind::Amdgcn:
    return "amdgcn";
  case IntrinsicKind::Shuffle:
    return "shuffle";
  case IntrinsicKind::Wave:
    return "wave";
  case IntrinsicKind::Atomic:
    return "atomic";
  case IntrinsicKind::Load:
    return "load";
  case IntrinsicKind::Nontemporal:
    return "nontemporal";
  case IntrinsicKind::Math:
    return "math";
  }
  return "unknown";
}

const char *launchFormName(LaunchForm F) {
  switch (F) {
  case LaunchForm::TripleChevron:
    return "triple_chevron";
  case LaunchForm::HipLaunchKernelGGL:
    return "hipLaunchKernelGGL";
  }
  return "unknown";
}

const char *sharedScopeName(SharedScope S) {
  switch (S) {
  case SharedScope::Kernel:
    return "kernel";
  case SharedScope::Namespace:
    return "namespace";
  }
  return "unknown";
}

} // namespace ave::model
