// Parse results: errors are values. Every parser in ave::ann returns
// Result<T>, which holds either the parsed T or a ParseError whose byte
// offsets index the text that was handed to the parser.
#ifndef AVE_ANNOTATIONS_RESULT_H
#define AVE_ANNOTATIONS_RESULT_H

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace ave::ann {

// A secondary location that explains an error, e.g. where a '(' was opened.
struct ParseNote {
  unsigned begin = 0;
  unsigned end = 0;
  std::string message;
};

// [begin, end) are byte offsets into the parsed text; begin == end marks a
// position (for example "expected ... here" at the end of the text).
struct ParseError {
  ParseError() = default;
  ParseError(unsigned Begin, unsigned End, std::string Message,
             std::optional<ParseNote> Note = std::nullopt)
      : begin(Begin), end(End), message(std::move(Message)), note(std::move(Note)) {}

  unsigned begin = 0;
  unsigned end = 0;
  std::string message;
  std::optional<ParseNote> note;
};

template <class T> class Result {
public:
  Result(T Value) : Storage(std::move(Value)) {}
  Result(ParseError Error) : Storage(std::move(Error)) {}

  bool ok() const { return Storage.index() == 0; }
  explicit operator bool() const { return ok(); }

  // Precondition: ok().
  T &value() { return std::get<0>(Storage); }
  const T &value() const { return std::get<0>(Storage); }
  T &operator*() { return value(); }
  const T &operator*() const { return value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

  // Precondition: !ok().
  const ParseError &error() const { return std::get<1>(Storage); }

private:
  std::variant<T, ParseError> Storage;
};

} // namespace ave::ann

#endif // AVE_ANNOTATIONS_RESULT_H
