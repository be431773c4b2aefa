#include "ave/frontend/LeadingIncludes.h"

#include "llvm/ADT/StringRef.h"

namespace ave::frontend {

std::string leadingSystemIncludes(std::string_view TextView) {
  llvm::StringRef Text(TextView.data(), TextView.size());
  std::string Prefix;
  while (!Text.empty()) {
    Text = Text.ltrim(" \t\r\n");
    if (Text.consume_front("//")) {
      Text = Text.split('\n').second;
      continue;
    }
    if (Text.consume_front("/*")) {
      size_t End = Text.find("*/");
      if (End == llvm::StringRef::npos)
        break;
      Text = Text.drop_front(End + 2);
      continue;
    }
    llvm::StringRef Line = Text.split('\n').first;
    llvm::StringRef Directive = Line;
    if (!Directive.consume_front("#"))
      break;
    Directive = Directive.ltrim(" \t");
    if (!Directive.consume_front("include"))
      break;
    Directive = Directive.trim(" \t\r");
    // `<name>` and nothing after it (no comment, no continuation).
    if (!Directive.starts_with("<") || !Directive.ends_with(">") ||
        Directive.drop_front().drop_back().contains('>'))
      break;
    Prefix += "#include " + Directive.str() + "\n";
    Text = Text.drop_front(Line.size());
  }
  return Prefix;
}

} // namespace ave::frontend
