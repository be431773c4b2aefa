#include "Z3Pool.h"

#include "ave/invariants/Solver.h"

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace ave::inv {

namespace {

// Checks on throwaway solvers of the kind a kernel's solver is (Z3's
// incremental SMT core, Solver.cpp), asked the way it asks (facts, then
// push, question, check, pop), in each encoding's operators:
// linear integer arithmetic with division and remainder by constants, a
// product of unknowns, and bit operations. A context's first check of each
// kind costs 8-10 ms more than later ones (the code Z3 runs for it is paged
// in and its tables made); here that is paid while the front end parses.
// Each formula is chosen to be easy: a hard one (an earlier warm-up mixed a
// product with division) took 175 ms. The kernel's own solvers are new: Z3
// sets a solver up for the logic of its first check (linear or not), and a
// warm-up formula must not choose that for the kernel (a linear at-most-once
// query of testdata's waveRowSums was then "incomplete").
// The order in which these terms and solvers are made is part of the
// context's history too: folding the three into one helper that builds
// each question before its solver moved a model-dependent verdict (the
// splitk overlapping_chunks mutant's at-least-once, violated -> unproven).
void warmUp(z3::context &C) {
  z3::expr X = C.int_const("ave_warm_x");
  z3::expr Y = C.int_const("ave_warm_y");
  z3::expr Z = C.int_const("ave_warm_z");
  z3::solver Linear(C, z3::solver::simple());
  Linear.add(X >= 0 && X < 4096 && Y >= 1 && Y <= 64 && X / 16 == Z && X % 16 == 0);
  for (int Bound : {7, 9}) {
    Linear.push();
    Linear.add(!(Y >= 0 && Z * 16 + Y < X) && Y < Bound);
    (void)Linear.check();
    Linear.pop();
  }
  z3::solver Product(C, z3::solver::simple());
  Product.add(X >= 1 && X <= 64 && Y >= 1 && Y <= 64);
  Product.push();
  Product.add(X * Y == Z && Z > 100 && Z % 16 == 4 && Z / 16 < X);
  (void)Product.check();
  Product.pop();
  z3::expr B = C.bv_const("ave_warm_b", 32);
  z3::expr D = C.bv_const("ave_warm_d", 32);
  z3::solver BitVector(C, z3::solver::simple());
  BitVector.add(z3::ult(B, C.bv_val(1024, 32)) && z3::ult(D, C.bv_val(32, 32)));
  BitVector.push();
  BitVector.add((B & C.bv_val(7, 32)) == C.bv_val(3, 32) &&
                (B ^ D) + D * C.bv_val(32, 32) == (D ^ z3::lshr(B, 3)) + B * C.bv_val(32, 32));
  (void)BitVector.check();
  BitVector.pop();
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
