#include "ave/review/PrefixPch.h"

#include "ave/review/PathSafety.h"
#include "ave/review/RevisionFileSystem.h"

#include "clang/AST/ASTConsumer.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace ave::review {

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

namespace {

// No repository files at all; remembers what was looked for.
class EmptyTree : public SourceTree {
public:
  std::string label() const override { return "(precompiled prefix)"; }
  EntryKind entry(const std::string &Path) override {
    Probed.insert(Path);
    return EntryKind::Missing;
  }
  std::optional<std::string> read(const std::string &Path, std::string &Error) override {
    Probed.insert(Path);
    Error = "not available to a precompiled prefix";
    return std::nullopt;
  }
  std::vector<std::string> filesMentioning(const std::string &,
                                           const std::vector<std::string> &) override {
    return {};
  }
  std::set<std::string> Probed;
};

} // namespace

PrefixPchCache::PrefixPchCache(std::string Root) : Root(std::move(Root)) {}

PrefixPchCache::~PrefixPchCache() {
  for (const auto &[Key, E] : Entries)
    if (!E.pch.empty()) {
      llvm::sys::fs::remove(E.pch);
      llvm::sys::fs::remove(E.pch + ".h");
    }
  if (!Dir.empty())
    llvm::sys::fs::remove(Dir);
}

PrefixPchCache::Entry PrefixPchCache::build(const std::string &Prefix, const UnitCommand &Command) {
  Entry E;
  if (Dir.empty()) {
    llvm::SmallString<128> Created;
    if (llvm::sys::fs::createUniqueDirectory("ave-review-pch", Created))
      return E;
    Dir = std::string(Created);
  }
  std::string Base = Dir + "/prefix-" + std::to_string(Entries.size());
  std::string Header = Base + ".pch.h", Pch = Base + ".pch";
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Header, EC);
    if (EC)
      return E;
    OS << Prefix;
  }
  EmptyTree Tree;
  std::vector<std::string> Allowed = defaultAllowedOutside();
  Allowed.push_back(Dir);
  ParseInputs In;
  In.file = Header;
  In.command = Command;
  In.command.commandLine.back() = Header;
  In.fs = makeRevisionFileSystem(Root, Tree, Allowed);
  In.pchOutput = Pch;
  ParseOutcome Out = parseUnit(In, [](clang::CompilerInstance &) { return nullptr; });
  if (!Out.ok || !llvm::sys::fs::exists(Pch)) {
    llvm::sys::fs::remove(Pch);
    llvm::sys::fs::remove(Header);
    return E;
  }
  ++Built;
  E.pch = Pch;
  E.probedInRepository = std::move(Tree.Probed);
  return E;
}

std::string PrefixPchCache::pchFor(std::string_view FileText, const UnitCommand &Command,
                                   SourceTree &Tree) {
  std::string Prefix = leadingSystemIncludes(FileText);
  if (Prefix.empty() || Command.commandLine.empty())
    return "";
  std::string Key = Prefix + '\0' + Command.directory;
  for (size_t I = 0; I + 1 < Command.commandLine.size(); ++I)
    Key += '\0' + Command.commandLine[I];
  auto It = Entries.find(Key);
  if (It == Entries.end())
    It = Entries.emplace(Key, build(Prefix, Command)).first;
  const Entry &E = It->second;
  if (E.pch.empty())
    return "";
  for (const std::string &Path : E.probedInRepository)
    if (Tree.entry(Path) != EntryKind::Missing)
      return ""; // the version has a file the prefix would have found
  return E.pch;
}

} // namespace ave::review
