// Lines of generated kernel text at a nesting depth, and the pieces of a
// tag's layout that the GEMM body writers (register-tile, matrix-core)
// both read: a coordinate's extent as text, the coordinate memory runs
// along. Internal to rewriters/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ave::ann {
struct TagSpec;
}

namespace ave::rw {

class KernelTextLines {
public:
  explicit KernelTextLines(std::string Indent) : Indent(std::move(Indent)) {}
  static std::string num(int64_t V) { return std::to_string(V); }
  // Text at Depth levels of the indent, ending its line.
  void line(int Depth, const std::string &Text);
  // `for (int v = 0; v < n; ++v)` at Depth, then Open.
  void loop(int Depth, const std::string &V, int64_t Trips, const char *Open = "");
  const std::string &text() const { return Out; }

private:
  std::string Indent, Out;
};

// The extent of Coordinate in Spec, parenthesized unless one token.
std::string extentText(const ann::TagSpec &Spec, const std::string &Coordinate);
// The layout's last addend when it is a bare coordinate.
std::optional<std::string> lastBareAddend(const ann::TagSpec &Spec);

} // namespace ave::rw
