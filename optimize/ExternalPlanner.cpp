#include "ave/optimize/ExternalPlanner.h"

#include "ave/support/InterruptCleanup.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ave::opt {

class ChildGuardHolder {
public:
  explicit ChildGuardHolder(pid_t Group) : Guard(Group) {}

private:
  support::ChildGroupGuard Guard;
};

namespace {

using nlohmann::json;

std::optional<Action> actionFrom(const json &J, std::string &Why) {
  if (!J.is_object()) {
    Why = "an action must be an object";
    return std::nullopt;
  }
  Action A;
  A.origin = "external";
  A.why = J.value("why", "");
  if (J.contains("patch")) {
    if (!J["patch"].is_string() || J["patch"].get<std::string>().empty()) {
      Why = "\"patch\" must be a non-empty string (a unified diff)";
      return std::nullopt;
    }
    A.patch = J["patch"].get<std::string>();
    A.summary = J.value("summary", "");
    return A;
  }
  if (J.contains("apply")) {
    if (!J["apply"].is_string()) {
      Why = "\"apply\" must be a string in --apply spelling";
      return std::nullopt;
    }
    A.chain = J["apply"].get<std::string>();
    return A;
  }
  if (!J.contains("recipe") || !J["recipe"].is_string()) {
    Why = "an action needs \"recipe\", \"apply\" or \"patch\"";
    return std::nullopt;
  }
  A.recipe = J["recipe"].get<std::string>();
  if (J.contains("parameters")) {
    if (!J["parameters"].is_object()) {
      Why = "\"parameters\" must be an object";
      return std::nullopt;
    }
    for (const auto &[Name, Value] : J["parameters"].items())
      A.parameters[Name] = Value.is_string() ? Value.get<std::string>() : Value.dump();
  }
  return A;
}

} // namespace

PlannerAnswer parsePlannerAnswer(const std::string &Line) {
  PlannerAnswer A;
  A.line = Line;
  json J = json::parse(Line, nullptr, false);
  if (J.is_discarded() || !J.is_object()) {
    A.error = "the answer is not a JSON object";
    return A;
  }
  if (J.value("type", "") == "stop") {
    A.stop = true;
    A.stopReason = J.value("reason", "");
    return A;
  }
  if (!J.contains("actions") || !J["actions"].is_array()) {
    A.error = "the answer has no \"actions\" array";
    return A;
  }
  for (size_t I = 0; I < J["actions"].size(); ++I) {
    std::string Why;
    std::optional<Action> Act = actionFrom(J["actions"][I], Why);
    if (!Act) {
      A.error = "actions[" + std::to_string(I) + "]: " + Why;
      A.actions.clear();
      return A;
    }
    A.actions.push_back(std::move(*Act));
  }
  return A;
}

ExternalPlanner::ExternalPlanner() = default;

ExternalPlanner::~ExternalPlanner() {
  if (Pid > 0 && !Dead)
    finish({{"type", "end"}});
}

std::string ExternalPlanner::start(const std::string &Command, unsigned TimeoutSeconds) {
  Timeout = TimeoutSeconds;
  int In[2], Out[2];
  if (pipe(In) != 0 || pipe(Out) != 0)
    return std::string("cannot create pipes: ") + std::strerror(errno);
  Pid = fork();
  if (Pid < 0)
    return std::string("cannot start the planner: ") + std::strerror(errno);
  if (Pid == 0) {
    setpgid(0, 0);
    dup2(In[0], 0);
    dup2(Out[1], 1);
    close(In[0]), close(In[1]), close(Out[0]), close(Out[1]);
    execl("/bin/sh", "sh", "-c", Command.c_str(), static_cast<char *>(nullptr));
    _exit(127);
  }
  setpgid(Pid, Pid);
  Guard = std::make_unique<ChildGuardHolder>(Pid);
  close(In[0]), close(Out[1]);
  ToChild = In[1], FromChild = Out[0];
  fcntl(ToChild, F_SETFD, FD_CLOEXEC);
  fcntl(FromChild, F_SETFD, FD_CLOEXEC);
  std::signal(SIGPIPE, SIG_IGN); // a planner that exits must not kill us
  return "";
}

bool ExternalPlanner::send(const json &Message) {
  if (!running())
    return false;
  std::string Line = Message.dump() + "\n";
  for (size_t Done = 0; Done < Line.size();) {
    ssize_t N = write(ToChild, Line.data() + Done, Line.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      lose(std::string("it stopped reading its input (") + std::strerror(errno) + ")");
      return false;
    }
    Done += N;
  }
  return true;
}

std::optional<std::string> ExternalPlanner::readLine(std::string &Why) {
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(Timeout);
  while (true) {
    if (size_t Nl = Buffer.find('\n'); Nl != std::string::npos) {
      std::string Line = Buffer.substr(0, Nl);
      Buffer.erase(0, Nl + 1);
      return Line;
    }
    auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
        Deadline - std::chrono::steady_clock::now());
    if (Left.count() <= 0) {
      Why = "the planner did not answer within " + std::to_string(Timeout) + " s";
      return std::nullopt;
    }
    pollfd P{FromChild, POLLIN, 0};
    int R = poll(&P, 1, static_cast<int>(Left.count()));
    if (R < 0 && errno == EINTR)
      continue;
    if (R <= 0)
      continue;
    char Chunk[65536];
    ssize_t N = read(FromChild, Chunk, sizeof Chunk);
    if (N <= 0) {
      lose("it closed its output");
      Why = "the planner " + Lost;
      return std::nullopt;
    }
    Buffer.append(Chunk, N);
  }
}

PlannerAnswer ExternalPlanner::ask(const json &Message) {
  PlannerAnswer A;
  for (int Try = 0; Try < 2; ++Try) {
    if (!send(Try == 0 ? Message
                       : json{{"type", "error"}, {"message", A.error}, {"answer", A.line}})) {
      // Why it stopped (`exited with status 3`), as a failed read says it:
      // which of the two notices a planner that exits at once depends on
      // timing, and the message must not (optimize_errors.test was flaky).
      bool Ended = Lost.rfind("exited", 0) == 0 || Lost.rfind("was killed", 0) == 0;
      A.error = Ended ? "the planner " + Lost
                      : "the planner is not running" + (Lost.empty() ? "" : " (" + Lost + ")");
      return A;
    }
    std::string Why;
    std::optional<std::string> Line = readLine(Why);
    if (!Line) {
      A = PlannerAnswer();
      A.error = Why;
      if (!Dead) { // still running: no exit status to wait for
        Dead = true;
        Lost = "did not answer in time";
      }
      return A;
    }
    A = parsePlannerAnswer(*Line);
    if (A.error.empty())
      return A;
    A.error = "line 1: " + A.error;
  }
  return A;
}

void ExternalPlanner::lose(const std::string &Why) {
  Dead = true;
  Lost = Why;
  int Status = 0;
  for (int I = 0; I < 20 && Pid > 0; ++I) { // an exiting child: give it 1 s
    if (waitpid(Pid, &Status, WNOHANG) == Pid) {
      Pid = -1;
      if (WIFEXITED(Status))
        Lost = "exited with status " + std::to_string(WEXITSTATUS(Status));
      else if (WIFSIGNALED(Status))
        Lost = std::string("was killed by signal ") + strsignal(WTERMSIG(Status));
      return;
    }
    usleep(50000);
  }
}

void ExternalPlanner::finish(const json &End) {
  if (Pid <= 0 && ToChild < 0 && FromChild < 0)
    return;
  send(End);
  if (ToChild >= 0)
    close(ToChild), ToChild = -1;
  for (int I = 0; I < 50 && Pid > 0; ++I) {
    int Status = 0;
    if (waitpid(Pid, &Status, WNOHANG) == Pid) {
      Pid = -1;
      break;
    }
    usleep(100000);
  }
  if (Pid > 0) {
    kill(-Pid, SIGKILL);
    waitpid(Pid, nullptr, 0);
    Pid = -1;
  }
  if (FromChild >= 0)
    close(FromChild), FromChild = -1;
  Dead = true;
  Guard.reset();
}

} // namespace ave::opt
