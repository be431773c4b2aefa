// --log FILE: the requests and replies of a run as JSON lines, appended.

#include "ave/planner_llm/RequestLog.h"

#include <iostream>

namespace ave::llm {

RequestLog::RequestLog(const std::string &Path) : Path(Path) {
  if (!Path.empty())
    Stream.open(Path, std::ios::app);
}

void RequestLog::write(const nlohmann::json &Entry) {
  if (Path.empty())
    return;
  if (!Stream) {
    if (!Warned)
      std::cerr << "ave-planner-llm: cannot write the log " << Path << '\n';
    Warned = true;
    return;
  }
  Stream << Entry.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  Stream.flush();
}

} // namespace ave::llm
