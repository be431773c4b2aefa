// The executor's run-time settings, read from the environment at each launch:
//   AVE_CPU_WAVE_SIZE      lanes per wave: 64 (AMD CDNA, default) or 32 (NVIDIA)
//   AVE_CPU_BLOCK_ORDER    "linear" (default) or "shuffle:SEED": blocks in a
//                          seeded random order
//   AVE_CPU_TIMEOUT        seconds one block may run before the watchdog ends
//                          the process (default 60)
//   AVE_CPU_LDS_BYTES      dynamic shared memory a launch may ask for (default
//                          65536, gfx942's LDS; at most 4 MiB)
//   AVE_CPU_QUIET          "1": do not print kernel failures to stderr
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace ave::cpu {

struct Settings {
  unsigned WaveSize = 64;
  bool Shuffle = false;
  uint64_t ShuffleSeed = 0;
  double TimeoutSeconds = 60;
  std::size_t LdsBytes = 65536;
  bool Quiet = false;
};

namespace detail {

inline bool parseUnsigned(const char *Text, uint64_t &Out) {
  if (!Text || !*Text)
    return false;
  char *End = nullptr;
  Out = std::strtoull(Text, &End, 0);
  return End && *End == '\0';
}

} // namespace detail

// Empty Error: the settings are valid.
inline Settings readSettings(std::string &Error) {
  Settings S;
  uint64_t Value = 0;
  if (const char *Wave = std::getenv("AVE_CPU_WAVE_SIZE"); Wave && *Wave) {
    if (!detail::parseUnsigned(Wave, Value) || (Value != 32 && Value != 64))
      Error = "AVE_CPU_WAVE_SIZE must be 32 or 64, not '" + std::string(Wave) + "'";
    else
      S.WaveSize = unsigned(Value);
  }
#if defined(__AMDGCN_WAVEFRONT_SIZE)
  if (S.WaveSize != __AMDGCN_WAVEFRONT_SIZE)
    Error = "this program was built for an AMD device with " +
            std::to_string(__AMDGCN_WAVEFRONT_SIZE) +
            "-lane waves; AVE_CPU_WAVE_SIZE=" + std::to_string(S.WaveSize) + " contradicts it";
#endif
  if (const char *Order = std::getenv("AVE_CPU_BLOCK_ORDER"); Order && *Order) {
    if (std::strncmp(Order, "shuffle:", 8) == 0 && detail::parseUnsigned(Order + 8, Value)) {
      S.Shuffle = true;
      S.ShuffleSeed = Value;
    } else if (std::strcmp(Order, "linear") != 0) {
      Error = "AVE_CPU_BLOCK_ORDER must be 'linear' or 'shuffle:SEED', not '" + std::string(Order) +
              "'";
    }
  }
  if (const char *Timeout = std::getenv("AVE_CPU_TIMEOUT"); Timeout && *Timeout) {
    char *End = nullptr;
    double Seconds = std::strtod(Timeout, &End);
    if (!End || *End || !(Seconds > 0))
      Error = "AVE_CPU_TIMEOUT must be a positive number of seconds, not '" + std::string(Timeout) +
              "'";
    else
      S.TimeoutSeconds = Seconds;
  }
  if (const char *Lds = std::getenv("AVE_CPU_LDS_BYTES"); Lds && *Lds) {
    if (!detail::parseUnsigned(Lds, Value) || Value == 0 || Value > (uint64_t(4) << 20))
      Error =
          "AVE_CPU_LDS_BYTES must be a byte count in (0, 4 MiB], not '" + std::string(Lds) + "'";
    else
      S.LdsBytes = std::size_t(Value);
  }
  if (const char *Quiet = std::getenv("AVE_CPU_QUIET"))
    S.Quiet = std::strcmp(Quiet, "1") == 0;
  return S;
}

} // namespace ave::cpu
