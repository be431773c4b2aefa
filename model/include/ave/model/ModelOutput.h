// The user-facing forms of the kernel model: JSON for tools, text for people.
// Both print only the plain facts, never AST pointers.
#pragma once

#include "ave/model/KernelModel.h"
#include "nlohmann/json.hpp"

namespace llvm {
class raw_ostream;
}

namespace ave::model {

nlohmann::json toJson(const SourcePosition &P);
nlohmann::json toJson(const KernelModel &K);
nlohmann::json toJson(const LaunchSite &L);
nlohmann::json toJson(const TranslationUnitModel &TU);

void printText(llvm::raw_ostream &OS, const KernelModel &K);
void printText(llvm::raw_ostream &OS, const LaunchSite &L);
void printText(llvm::raw_ostream &OS, const TranslationUnitModel &TU);

} // namespace ave::model
