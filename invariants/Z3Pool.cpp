#include "Z3Pool.h"

#include "ave/invariants/Solver.h"

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace ave::inv {

namespace {

// One check in each encoding's operators (integer division and remainder, a
// product, bit operations) on throwaway solvers: what the context pays on
// its first checks is paid here. The kernel's own solvers are new: Z3 sets a
// solver up for the logic of its first check (linear or not), and a warm-up
// formula must not choose that for the kernel (a linear at-most-once query
// of testdata's waveRowSums was then "incomplete").
void warmUp(z3::context &C) {
  z3::expr X = C.int_const("ave_warm_x");
  z3::expr Y = C.int_const("ave_warm_y");
  z3::solver Integer(C);
  Integer.add(X >= 0 && X < 4096 && Y >= 1 && Y <= 64 && X / 16 + X % 16 == Y * 3 && X * Y > 100);
  (void)Integer.check();
  z3::expr B = C.bv_const("ave_warm_b", 32);
  z3::solver BitVector(C);
  BitVector.add((B & C.bv_val(7, 32)) == C.bv_val(3, 32) && z3::ult(B, C.bv_val(1024, 32)) &&
                (B ^ z3::lshr(B, 3)) != C.bv_val(0, 32));
  (void)BitVector.check();
}

class Z3Pool {
public:
  static Z3Pool &instance() {
    static Z3Pool Pool;
    return Pool;
  }

  ~Z3Pool() {
    if (Worker.joinable())
      Worker.join();
  }

  void warmInBackground() {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Worker.joinable())
      return; // one per process: see Z3Pool.h
    Making = true;
    Worker = std::thread([this] {
      auto Entry = std::make_unique<WarmZ3>();
      std::lock_guard<std::mutex> Lock(Mutex);
      Warm = std::move(Entry);
      Making = false;
      Ready.notify_all();
    });
  }

  std::unique_ptr<WarmZ3> take() {
    {
      std::unique_lock<std::mutex> Lock(Mutex);
      Ready.wait(Lock, [this] { return !Making; });
      if (Warm)
        return std::move(Warm);
    }
    return std::make_unique<WarmZ3>();
  }

private:
  Z3Pool() = default;

  std::mutex Mutex;
  std::condition_variable Ready;
  std::unique_ptr<WarmZ3> Warm; // made and not taken yet
  bool Making = false;
  std::thread Worker;
};

} // namespace

WarmZ3::WarmZ3() { warmUp(context); }

void WarmZ3::limitNextCheck(unsigned Work, unsigned WallMs) {
  if (Work != LastWork)
    Z3_update_param_value(context, "rlimit", std::to_string(Work).c_str());
  if (WallMs != LastWallMs)
    Z3_update_param_value(context, "timeout", std::to_string(WallMs).c_str());
  LastWork = Work;
  LastWallMs = WallMs;
}

std::unique_ptr<WarmZ3> takeWarmZ3() { return Z3Pool::instance().take(); }

void warmSolversInBackground() { Z3Pool::instance().warmInBackground(); }

} // namespace ave::inv
