// --log FILE: every request sent to the model and every reply received,
// appended as JSON lines, so a run can be read back or replayed later.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace ave::llm {

class RequestLog {
public:
  // An empty path logs nothing.
  explicit RequestLog(const std::string &Path);

  // Appends one entry as a line and flushes it (a run may be killed).
  void write(const nlohmann::json &Entry);

private:
  std::string Path;
  std::ofstream Stream;
  bool Warned = false;
};

} // namespace ave::llm
