#include "ave/optimize/OptimizeReport.h"

#include "TextFormat.h"
#include "ave/support/AtomicWrite.h"

#include <algorithm>
#include <cstdio>

namespace ave::opt {

using nlohmann::json;

namespace {

std::string actionText(const Member &M) {
  if (!M.action)
    return "(original)";
  return M.action->isPatch() ? "patch: " + M.action->summary : M.action->apply();
}

json funnelJson(const GenerationFunnel &F) {
  return {{"generation", F.generation}, {"proposed", F.proposed}, {"rewritten", F.rewritten},
          {"proven", F.proven},         {"compiled", F.compiled}, {"tested", F.tested},
          {"faster", F.faster},         {"best", F.best},         {"best_score", F.bestScore},
          {"seconds", F.seconds},       {"note", F.note}};
}

std::string escapeXml(const std::string &S) {
  std::string Out;
  for (char C : S)
    Out += C == '<' ? "&lt;" : C == '>' ? "&gt;" : C == '&' ? "&amp;" : std::string(1, C);
  return Out;
}

} // namespace

json reportJson(const OptimizeOptions &O, const OptimizeResult &R) {
  json Funnel = json::array(), Members = json::array();
  for (const GenerationFunnel &F : R.funnel)
    Funnel.push_back(funnelJson(F));
  for (const Member &M : R.lineage.members())
    Members.push_back({{"id", M.id},
                       {"parent", M.parent},
                       {"generation", M.generation},
                       {"action", actionText(M)},
                       {"score", M.score},
                       {"reward", M.reward},
                       {"proof", M.proof},
                       {"metrics", M.metrics}});
  std::vector<std::string> Line;
  for (const Member *M : ancestry(R.lineage, R.lineage.best().id))
    Line.push_back(M->id);
  return {{"file", O.file},
          {"kernel", R.lineage.settings.value("kernel", "")},
          {"evaluate", O.evaluate},
          {"seed", O.seed},
          {"lineage_dir", R.lineage.dir()},
          {"stop_reason", R.stopReason},
          {"seconds", R.seconds},
          {"funnel", Funnel},
          {"members", Members},
          {"attempts", R.lineage.attempts().size()},
          {"best", R.lineage.best().id},
          {"best_score", R.lineage.best().score},
          {"best_line", Line},
          {"patch", R.finalPatch}};
}

std::string reportMarkdown(const OptimizeOptions &O, const OptimizeResult &R) {
  const Member &Best = R.lineage.best();
  std::string Md = "# optimize " + O.file + " (kernel " +
                   R.lineage.settings.value("kernel", std::string()) + ")\n\n";
  Md += "Evaluation: " + O.evaluate + ", seed " + std::to_string(O.seed) +
        ". Stopped: " + R.stopReason + " after " + fixed(R.seconds, 0) + " s. Best: **" + Best.id +
        "**, x" + fixed(Best.score) + " against the original (" + Best.proof + ").\n\n";
  Md += "## Funnel\n\n| generation | proposed | rewritten | proven | compiled | tested | faster | "
        "best | note |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const GenerationFunnel &F : R.funnel)
    Md += "| " + std::to_string(F.generation) + " | " + std::to_string(F.proposed) + " | " +
          std::to_string(F.rewritten) + " | " + std::to_string(F.proven) + " | " +
          std::to_string(F.compiled) + " | " + std::to_string(F.tested) + " | " +
          std::to_string(F.faster) + " | " + F.best + " x" + fixed(F.bestScore) + " | " + F.note +
          " |\n";
  Md += "\n## Lineage\n\n| id | parent | action | score | gain | bound | modeled GFLOP/s | "
        "VGPRs | proof |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const Member &M : R.lineage.members())
    Md += "| " + M.id + " | " + (M.parent.empty() ? "-" : M.parent) + " | `" + actionText(M) +
          "` | x" + fixed(M.score) + " | " +
          (M.parent.empty() ? "-" : fixed(100 * M.reward, 1) + "%") + " | " +
          M.metrics.value("bound", std::string()) + " | " +
          fixed(M.metrics.value("modeled_gflops", 0.0), 0) + " | " +
          std::to_string(M.metrics.value("vgprs", 0)) + " | " + M.proof + " |\n";
  Md += "\n## The winner's line\n\n";
  for (const Member *M : ancestry(R.lineage, Best.id))
    Md += "- " + M->id + ": `" + actionText(*M) + "`" +
          (M->action && !M->action->why.empty() ? " (" + M->action->why + ")" : "") + "\n";
  Md += "\n![performance per generation](performance.svg)\n\n## Patch against " + O.file +
        "\n\n```diff\n" + R.finalPatch + "```\n";
  return Md;
}

std::string performanceSvg(const OptimizeResult &R) {
  const double W = 640, H = 320, Left = 60, Bottom = 40, Top = 30, Right = 20;
  unsigned Gens = 1;
  double MaxScore = 1;
  for (const Member &M : R.lineage.members())
    Gens = std::max(Gens, M.generation), MaxScore = std::max(MaxScore, M.score);
  for (const GenerationFunnel &F : R.funnel)
    Gens = std::max(Gens, F.generation);
  auto X = [&](double G) { return Left + (W - Left - Right) * G / Gens; };
  auto Y = [&](double S) { return H - Bottom - (H - Bottom - Top) * S / (MaxScore * 1.1); };
  std::string Svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fixed(W, 0) +
                    "\" height=\"" + fixed(H, 0) +
                    "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  Svg += "<text x=\"" + fixed(Left, 0) +
         "\" y=\"18\" font-size=\"13\">speed against the original per generation</text>\n";
  Svg += "<line x1=\"" + fixed(Left) + "\" y1=\"" + fixed(H - Bottom) + "\" x2=\"" +
         fixed(W - Right) + "\" y2=\"" + fixed(H - Bottom) + "\" stroke=\"black\"/>\n<line x1=\"" +
         fixed(Left) + "\" y1=\"" + fixed(Top) + "\" x2=\"" + fixed(Left) + "\" y2=\"" +
         fixed(H - Bottom) + "\" stroke=\"black\"/>\n";
  for (unsigned G = 0; G <= Gens; ++G)
    Svg += "<text x=\"" + fixed(X(G)) + "\" y=\"" + fixed(H - Bottom + 16) +
           "\" text-anchor=\"middle\">" + std::to_string(G) + "</text>\n";
  for (double S : {1.0, MaxScore})
    Svg += "<text x=\"" + fixed(Left - 6) + "\" y=\"" + fixed(Y(S) + 4) +
           "\" text-anchor=\"end\">x" + fixed(S) + "</text>\n";
  std::string Path = "M " + fixed(X(0)) + " " + fixed(Y(1));
  for (const GenerationFunnel &F : R.funnel)
    Path += " L " + fixed(X(F.generation)) + " " + fixed(Y(F.bestScore));
  Svg += "<path d=\"" + Path + "\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\"/>\n";
  for (const Member &M : R.lineage.members())
    Svg += "<circle cx=\"" + fixed(X(M.generation)) + "\" cy=\"" + fixed(Y(M.score)) +
           "\" r=\"4\" fill=\"#ff7f0e\"><title>" +
           escapeXml(M.id + " " + actionText(M) + " x" + fixed(M.score)) + "</title></circle>\n";
  Svg += "<text x=\"" + fixed((W + Left) / 2) + "\" y=\"" + fixed(H - 6) +
         "\" text-anchor=\"middle\">generation</text>\n</svg>\n";
  return Svg;
}

std::string writeReports(const OptimizeOptions &O, const OptimizeResult &R) {
  const std::string &Dir = R.lineage.dir();
  const std::pair<std::string, std::string> Files[] = {
      {"report.md", reportMarkdown(O, R)},
      {"report.json", reportJson(O, R).dump(2) + "\n"},
      {"performance.svg", performanceSvg(R)},
      {"final.patch", R.finalPatch}};
  for (const auto &[Name, Text] : Files)
    if (std::error_code EC = support::writeFileAtomically(Dir + "/" + Name, Text))
      return "cannot write " + Dir + "/" + Name + ": " + EC.message();
  return "";
}

} // namespace ave::opt
