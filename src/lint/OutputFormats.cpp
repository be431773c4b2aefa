// JSON and SARIF 2.1.0 renderings of a lint run. SARIF follows what GitHub
// code scanning reads: tool.driver.rules (id, name, short/full description,
// help), results with ruleId/ruleIndex, level, message.text, a physical
// location relative to %SRCROOT% with start/end line/column,
// partialFingerprints, and the notes as relatedLocations plus one codeFlow.

#include "ave/lint/OutputFormats.h"

#include "ave/lint/CheckCatalog.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace ave::lint {

namespace {

using nlohmann::json;

json locationJson(const LintLocation &L) {
  if (!L.valid())
    return nullptr;
  return {{"file", L.file},
          {"line", L.line},
          {"column", L.column},
          {"endLine", L.endLine},
          {"endColumn", L.endColumn}};
}

uint64_t fnv1a(llvm::StringRef S) {
  uint64_t H = 1469598103934665603ull;
  for (unsigned char C : S) {
    H ^= C;
    H *= 1099511628211ull;
  }
  return H;
}

std::string hex(uint64_t V) {
  char Buf[17];
  snprintf(Buf, sizeof Buf, "%016llx", static_cast<unsigned long long>(V));
  return Buf;
}

// The text of a line, trimmed, so the fingerprint survives edits elsewhere.
std::string lineText(const std::string &File, unsigned Line) {
  auto Buf = llvm::MemoryBuffer::getFile(File);
  if (!Buf)
    return "";
  llvm::StringRef Text = (*Buf)->getBuffer();
  for (unsigned I = 1; I < Line && !Text.empty(); ++I)
    Text = Text.split('\n').second;
  return Text.split('\n').first.trim().str();
}

// A path as the path of a URI (RFC 3986): unreserved characters and '/'
// stay, every other byte (space, '%', '#', '?', non-ASCII) is %XX.
std::string uriPath(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' || C == '/') {
      Out += char(C);
      continue;
    }
    static constexpr char Hex[] = "0123456789ABCDEF";
    Out += '%';
    Out += Hex[C >> 4];
    Out += Hex[C & 15];
  }
  return Out;
}

std::string fileUri(llvm::StringRef AbsolutePath) { return "file://" + uriPath(AbsolutePath); }

class UriMaker {
public:
  explicit UriMaker(std::string Root) : Root(std::move(Root)) {}
  json artifact(const std::string &File) const {
    llvm::StringRef F(File);
    std::string Prefix = Root + "/";
    if (!Root.empty() && F.starts_with(Prefix))
      return {{"uri", uriPath(F.drop_front(Prefix.size()))}, {"uriBaseId", "%SRCROOT%"}};
    return {{"uri", fileUri(File)}};
  }
  std::string relative(const std::string &File) const {
    llvm::StringRef F(File);
    std::string Prefix = Root + "/";
    return F.starts_with(Prefix) ? F.drop_front(Prefix.size()).str() : File;
  }

private:
  std::string Root;
};

json physical(const UriMaker &U, const LintLocation &L) {
  json Region = {{"startLine", L.line}, {"startColumn", L.column}};
  if (L.endLine) {
    Region["endLine"] = L.endLine;
    Region["endColumn"] = L.endColumn;
  }
  return {{"artifactLocation", U.artifact(L.file)}, {"region", Region}};
}

json ruleJson(const std::string &Id) {
  if (const CheckInfo *C = findCheck(Id))
    return {{"id", Id},
            {"name", Id},
            {"shortDescription", {{"text", std::string(C->shortDescription)}}},
            {"fullDescription", {{"text", std::string(C->fullDescription)}}},
            // No helpUri: SARIF wants an absolute URI there, and the
            // documentation is the tool's own docs/lint.md, wherever it is.
            {"help", {{"text", std::string(C->help) + " Documentation: " + docsAnchor(*C) + "."}}},
            {"defaultConfiguration", {{"level", "warning"}}},
            {"properties", {{"tags", {std::string(C->category), "gpu"}}}}};
  std::string Text = "clang-tidy check " + Id;
  return {{"id", Id},
          {"name", Id},
          {"shortDescription", {{"text", Text}}},
          {"fullDescription", {{"text", Text}}},
          {"help", {{"text", "See the clang-tidy documentation of " + Id + "."}}},
          {"defaultConfiguration", {{"level", "warning"}}}};
}

// `name=V` and `name=(x,y,z)` (as name.x, name.y, name.z) in Text, up to
// a `->` (what follows are observed values, not symbols).
void readValues(llvm::StringRef Text, json &Out) {
  Text = Text.split(" -> ").first;
  llvm::SmallVector<llvm::StringRef> Tokens;
  Text.split(Tokens, ' ', -1, false);
  for (llvm::StringRef Token : Tokens) {
    Token = Token.rtrim(',');
    auto [Name, Value] = Token.split('=');
    if (Name.empty() || Value.empty() || Name.contains('('))
      continue;
    int64_t V = 0;
    if (!Value.getAsInteger(10, V)) {
      Out[Name.str()] = V;
      continue;
    }
    if (!Value.consume_front("(") || !Value.consume_back(")"))
      continue;
    llvm::SmallVector<llvm::StringRef> Parts;
    Value.split(Parts, ',');
    if (Parts.size() != 3)
      continue;
    const char *Dims[] = {"x", "y", "z"};
    for (unsigned D = 0; D < 3; ++D)
      if (!Parts[D].getAsInteger(10, V))
        Out[Name.str() + "." + Dims[D]] = V;
  }
}

} // namespace

json counterexampleValues(const LintDiagnostic &D) {
  json Values = json::object();
  for (const LintNote &N : D.notes)
    if (llvm::StringRef(N.message).starts_with("values: "))
      readValues(llvm::StringRef(N.message).drop_front(8), Values);
  if (!Values.empty())
    return Values;
  // ave-invariant prints its values in the counterexample line itself.
  for (const LintNote &N : D.notes)
    if (llvm::StringRef(N.message).starts_with("counterexample: "))
      readValues(llvm::StringRef(N.message).drop_front(16), Values);
  return Values;
}

std::string findSourceRoot(const std::string &Dir) {
  llvm::SmallString<256> P(Dir);
  llvm::sys::fs::make_absolute(P);
  // "/repo/." would never prefix "/repo/file": SARIF URIs stayed absolute.
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  for (llvm::StringRef Cur = P; !Cur.empty(); Cur = llvm::sys::path::parent_path(Cur)) {
    llvm::SmallString<256> Git(Cur);
    llvm::sys::path::append(Git, ".git");
    if (llvm::sys::fs::exists(Git))
      return Cur.str();
  }
  return P.str().str();
}

json toJson(const LintResult &R) {
  json Diags = json::array();
  for (const LintDiagnostic &D : R.diagnostics) {
    json J = {{"check", D.check},
              {"level", D.level},
              {"message", D.message},
              {"location", locationJson(D.location)}};
    json Notes = json::array();
    for (const LintNote &N : D.notes)
      Notes.push_back({{"message", N.message}, {"location", locationJson(N.location)}});
    json Fixes = json::array();
    for (const LintReplacement &F : D.fixes)
      Fixes.push_back(
          {{"file", F.file}, {"offset", F.offset}, {"length", F.length}, {"replacement", F.text}});
    J["notes"] = std::move(Notes);
    J["fixes"] = std::move(Fixes);
    if (json Values = counterexampleValues(D); !Values.empty())
      J["values"] = std::move(Values);
    Diags.push_back(std::move(J));
  }
  json Kernels = json::array();
  unsigned Plain = 0;
  for (const KernelSeen &K : R.kernels) {
    Kernels.push_back({{"file", K.file}, {"name", K.name}, {"annotated", K.annotated}});
    Plain += !K.annotated;
  }
  json Errors = json::array();
  for (const UnreadableInput &U : R.unreadable)
    Errors.push_back({{"file", U.file}, {"message", U.reason}});
  return {{"diagnostics", std::move(Diags)},
          {"errors", std::move(Errors)},
          {"kernels", std::move(Kernels)},
          {"summary",
           {{"files", R.files.size()},
            {"kernels", R.kernels.size()},
            {"unannotatedKernels", Plain},
            {"findings", R.findings()},
            {"byCheck", R.findingsByCheck()},
            {"compilerErrors", R.compileErrors()},
            {"malformedAnnotations", R.inputErrors},
            {"exitCode", R.exitCode()}}}};
}

json toSarif(const LintResult &R, const SarifOptions &Opts) {
  UriMaker Uris(Opts.sourceRoot);
  json Rules = json::array();
  std::map<std::string, unsigned> RuleIndex;
  auto AddRule = [&](const std::string &Id) {
    if (RuleIndex.count(Id))
      return RuleIndex[Id];
    RuleIndex[Id] = unsigned(Rules.size());
    Rules.push_back(ruleJson(Id));
    return RuleIndex[Id];
  };
  for (const CheckInfo &C : aveChecks())
    AddRule(std::string(C.id));

  json Results = json::array();
  for (const LintDiagnostic &D : R.diagnostics) {
    std::string Level = D.level == "error" ? "error" : D.level == "remark" ? "note" : "warning";
    if (Level == "warning" && Opts.warningAsError && Opts.warningAsError(D.check))
      Level = "error";
    json Res = {{"ruleId", D.check},
                {"ruleIndex", AddRule(D.check)},
                {"level", Level},
                {"message", {{"text", D.message}}}};
    if (D.location.valid()) {
      Res["locations"] = json::array({{{"physicalLocation", physical(Uris, D.location)}}});
      std::string Key = D.check + "|" + Uris.relative(D.location.file) + "|" + D.message + "|" +
                        lineText(D.location.file, D.location.line);
      Res["partialFingerprints"] = {{"primaryLocationLineHash", hex(fnv1a(Key)) + ":1"}};
    } else {
      Res["locations"] = json::array();
    }
    json Related = json::array();
    json Flow = json::array();
    if (D.location.valid())
      Flow.push_back({{"location",
                       {{"physicalLocation", physical(Uris, D.location)},
                        {"message", {{"text", D.message}}}}}});
    unsigned Id = 0;
    for (const LintNote &N : D.notes) {
      if (!N.location.valid())
        continue;
      json Loc = {{"physicalLocation", physical(Uris, N.location)},
                  {"message", {{"text", N.message}}}};
      json Rel = Loc;
      Rel["id"] = Id++;
      Related.push_back(std::move(Rel));
      Flow.push_back({{"location", std::move(Loc)}});
    }
    if (!Related.empty()) {
      Res["relatedLocations"] = std::move(Related);
      Res["codeFlows"] = json::array({{{"message", {{"text", "counterexample"}}},
                                       {"threadFlows", json::array({{{"locations", Flow}}})}}});
    }
    if (json Values = counterexampleValues(D); !Values.empty())
      Res["properties"] = {{"values", std::move(Values)}};
    if (!D.fixes.empty()) {
      json Changes = json::array();
      for (const LintReplacement &F : D.fixes)
        Changes.push_back(
            {{"artifactLocation", Uris.artifact(F.file)},
             {"replacements",
              json::array({{{"deletedRegion", {{"charOffset", F.offset}, {"charLength", F.length}}},
                            {"insertedContent", {{"text", F.text}}}}})}});
      Res["fixes"] = json::array({{{"description", {{"text", "apply the suggested change"}}},
                                   {"artifactChanges", std::move(Changes)}}});
    }
    Results.push_back(std::move(Res));
  }
  json Notifications = json::array();
  for (const UnreadableInput &U : R.unreadable)
    Notifications.push_back(
        {{"level", "error"}, {"message", {{"text", U.file + ": " + U.reason}}}});
  for (const KernelSeen &K : R.kernels)
    if (!K.annotated)
      Notifications.push_back(
          {{"level", "note"},
           {"message",
            {{"text", "kernel '" + K.name +
                          "' has no annotations: only the race, "
                          "barrier, bank-conflict and capacity checks apply"}}},
           {"locations",
            json::array({{{"physicalLocation", {{"artifactLocation", Uris.artifact(K.file)}}}}})}});
  json Run = {
      {"tool",
       {{"driver",
         {{"name", "ave-rewrite"},
          {"version", Opts.toolVersion},
          {"semanticVersion", Opts.toolVersion},
          {"rules", std::move(Rules)}}}}},
      {"originalUriBaseIds", {{"%SRCROOT%", {{"uri", fileUri(Opts.sourceRoot + "/")}}}}},
      {"results", std::move(Results)},
      {"invocations", json::array({{{"executionSuccessful", R.exitCode() != 2},
                                    {"toolExecutionNotifications", std::move(Notifications)}}})}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs", json::array({std::move(Run)})}};
}

} // namespace ave::lint
