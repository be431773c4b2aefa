// Numbers in the optimizer's progress lines and reports: a fixed number of
// decimals ("3.40", "182"), the same in every place that prints them.
#pragma once

#include <cstdio>
#include <string>

namespace ave::opt {

inline std::string fixed(double V, int Digits = 2) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.*f", Digits, V);
  return Buf;
}

} // namespace ave::opt
