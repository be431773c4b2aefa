// The external planner (`optimize --planner-cmd CMD`): a child process that
// receives JSON lines on its standard input and answers `propose` messages
// with actions on its standard output (docs/planner-protocol.md). This file
// is the transport and the answer's validation; the optimizer decides what
// to send and verifies whatever comes back like any other action.
#pragma once

#include "ave/optimize/Lineage.h"
#include "nlohmann/json.hpp"

#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ave::opt {

struct PlannerAnswer {
  bool stop = false;
  std::string stopReason;
  std::vector<Action> actions;
  std::string error; // the answer was not valid (or none came): why
  std::string line;  // the line received
};

// Reads an answer line: {"actions": [...]} or {"type": "stop"}. Recipe
// actions may spell their rewrites as "apply" ("pipeline:stages=3").
PlannerAnswer parsePlannerAnswer(const std::string &Line);

class ChildGuardHolder;

class ExternalPlanner {
public:
  ExternalPlanner();
  ~ExternalPlanner();
  // Starts `/bin/sh -c Command`; "" or why it could not start.
  std::string start(const std::string &Command, unsigned TimeoutSeconds);
  bool running() const { return Pid > 0 && !Dead; }
  // Why it stopped running ("" while it runs): how it exited, when known.
  const std::string &lostBecause() const { return Lost; }
  // Sends one message; false when the planner is gone.
  bool send(const nlohmann::json &Message);
  // Sends a message and reads the answer line (within the timeout); a
  // malformed answer gets one `error` message and a second chance.
  PlannerAnswer ask(const nlohmann::json &Message);
  // Sends `end`, closes its input and waits for it (up to 5 s, then kills it).
  void finish(const nlohmann::json &End);

private:
  std::optional<std::string> readLine(std::string &Why);
  // Marks the planner gone: Why, and its exit status when it has exited.
  void lose(const std::string &Why);
  pid_t Pid = -1;
  int ToChild = -1, FromChild = -1;
  bool Dead = false;
  unsigned Timeout = 300;
  std::string Buffer;
  std::string Lost;
  std::unique_ptr<ChildGuardHolder> Guard;
};

} // namespace ave::opt
