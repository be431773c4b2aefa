#include "ave/agent/InMemoryParse.h"

#include "llvm/Support/raw_ostream.h"

namespace ave::agent {

InMemoryParseResult parseHipSource(const frontend::FileFlags &Flags, const std::string &Code,
                                   const frontend::HipArgsOptions &Args,
                                   const frontend::UnitCallback &OnUnit) {
  InMemoryParseResult Result;
  llvm::raw_string_ostream Diagnostics(Result.diagnostics);
  frontend::SingleParse How;
  How.contents = &Code;
  How.diagnostics = &Diagnostics;
  Result.parsed = frontend::parseHipFile(Flags, Args, OnUnit, How);
  Diagnostics.flush();
  return Result;
}

InMemoryParseResult parseHipSource(const std::string &Path, const std::string &Code,
                                   const frontend::HipArgsOptions &Args,
                                   const frontend::UnitCallback &OnUnit) {
  frontend::FileFlags Flags;
  Flags.file = frontend::absolutePath(Path);
  Flags.user = frontend::defaultUserFlags(Args);
  return parseHipSource(Flags, Code, Args, OnUnit);
}

} // namespace ave::agent
