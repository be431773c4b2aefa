#include "ave/optimize/Planner.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>

namespace ave::opt {

namespace {

std::string lower(std::string S) {
  std::transform(S.begin(), S.end(), S.begin(), [](unsigned char C) { return std::tolower(C); });
  return S;
}

std::optional<double> number(const std::string &S) {
  if (S.empty() || S.find_first_not_of("0123456789.") != std::string::npos)
    return std::nullopt;
  return std::stod(S);
}

const std::vector<std::string> &valuesOf(const Recipe &R, const std::string &Param) {
  static const std::vector<std::string> None;
  for (const auto &[Name, Values] : R.parameters)
    if (Name == Param)
      return Values;
  return None;
}

// The values a repair moves Param to, nearest first.
std::vector<std::string> repairedValues(const Recipe &R, const std::string &Param,
                                        const std::string &Current, const std::string &Then) {
  std::vector<std::string> Out;
  const std::vector<std::string> &Values = valuesOf(R, Param);
  std::optional<double> Cur = number(Current);
  for (const std::string &V : Values) {
    if (V == Current)
      continue;
    std::optional<double> N = number(V);
    bool Keep = Then == "vary" || !Cur || !N || (Then == "shrink" ? *N < *Cur : *N > *Cur);
    if (Keep)
      Out.push_back(V);
  }
  if (!Cur || Then == "vary")
    return Out;
  // Nearest first; the list's order breaks ties (std::sort on indices:
  // stable_sort's temporary buffer trips a deprecation warning).
  std::vector<size_t> Order(Out.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  auto Distance = [&](size_t I) {
    std::optional<double> N = number(Out[I]);
    return N ? std::fabs(*N - *Cur) : 1e300;
  };
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return Distance(A) < Distance(B) || (Distance(A) == Distance(B) && A < B);
  });
  std::vector<std::string> Sorted;
  for (size_t I : Order)
    Sorted.push_back(Out[I]);
  return Sorted;
}

const RepairRule *matchingRule(const Recipe &R, const Attempt &A) {
  const std::string About = lower(A.stage + " " + A.reason);
  for (const RepairRule &Rule : R.repairs)
    if (About.find(lower(Rule.when)) != std::string::npos)
      return &Rule;
  return nullptr;
}

class Chooser {
public:
  explicit Chooser(const PlanRequest &R) : Req(R) {}

  bool full() const { return Chosen.size() >= Req.wanted; }
  bool fresh(const Action &A) const {
    if (Req.lineage.tried(Req.parent.id, A))
      return false;
    return std::none_of(Chosen.begin(), Chosen.end(),
                        [&](const Action &C) { return C.key() == A.key(); });
  }
  void add(Action A) { Chosen.push_back(std::move(A)); }
  std::vector<Action> take() { return std::move(Chosen); }

private:
  const PlanRequest &Req;
  std::vector<Action> Chosen;
};

void addRepairs(const PlanRequest &R, Chooser &C, std::set<std::string> &Avoid,
                std::set<std::string> &Refused) {
  for (const Attempt &A : R.lineage.attempts()) {
    if (A.parent != R.parent.id || A.action.isPatch() ||
        (A.status != "rejected" && A.status != "not-applicable" && A.status != "invalid"))
      continue;
    const Recipe *Rec = R.kb.find(A.action.recipe);
    if (!Rec)
      continue;
    Refused.insert(Rec->name);
    const RepairRule *Rule = matchingRule(*Rec, A);
    if (!Rule)
      continue;
    if (Rule->then == "switch-family") {
      Avoid.insert(Rec->family);
      continue;
    }
    for (const std::string &Param : Rule->parameters) {
      auto It = A.action.parameters.find(Param);
      const std::string Current = It == A.action.parameters.end() ? "" : It->second;
      for (const std::string &V : repairedValues(*Rec, Param, Current, Rule->then)) {
        Action Fix = A.action;
        Fix.parameters[Param] = V;
        Fix.origin = "repair";
        Fix.why = A.action.apply() + " was " + A.status + " (" + A.stage +
                  (A.reason.empty() ? "" : ": " + A.reason.substr(0, 120)) + "): rule '" +
                  Rule->when + "' -> " + Rule->then + " " + Param;
        if (C.fresh(Fix)) {
          C.add(std::move(Fix));
          break;
        }
      }
      if (C.full())
        return;
    }
  }
}

struct Ranked {
  const Recipe *recipe;
  double score;
  std::vector<rw::ParameterValues> sets;
  size_t next = 0;
};

std::vector<Ranked> rankRecipes(const PlanRequest &R, const std::set<std::string> &Avoid,
                                const std::set<std::string> &Refused) {
  std::vector<Ranked> Out;
  std::uniform_real_distribution<double> Jitter(0, 1e-6);
  const std::string Class = R.facts.kernelClass();
  std::set<std::string> OnLine;
  for (const Member *M : ancestry(R.lineage, R.parent.id))
    if (M->action && !M->action->isPatch())
      OnLine.insert(M->action->recipe);
  for (const Recipe &Rec : R.kb.recipes) {
    if (Avoid.count(Rec.family) || Refused.count(Rec.name) ||
        (Rec.oncePerLine && OnLine.count(Rec.name)) ||
        !preconditionFailure(Rec, R.facts.features).empty())
      continue;
    double Score = R.bandit.upperBound(Rec.name, Class, std::log(Rec.expectedSpeedup));
    if (Rec.targets == R.bottleneck)
      Score += 0.3;
    if (R.rng)
      Score += Jitter(*R.rng);
    Out.push_back({&Rec, Score, parameterSets(Rec), 0});
  }
  std::sort(Out.begin(), Out.end(), [](const Ranked &A, const Ranked &B) {
    return A.score > B.score || (A.score == B.score && A.recipe->name < B.recipe->name);
  });
  return Out;
}

std::string rankWhy(const Ranked &R, size_t Rank, size_t Of, const std::string &Bottleneck) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.3f", R.score);
  return "ranked " + std::to_string(Rank + 1) + " of " + std::to_string(Of) + " (bound " + Buf +
         ", expected x" + std::to_string(R.recipe->expectedSpeedup).substr(0, 4) +
         (R.recipe->targets == Bottleneck ? ", targets the " + Bottleneck + " bottleneck" : "") +
         ")";
}

void addRanked(const PlanRequest &R, Chooser &C, std::vector<Ranked> &Ranking) {
  bool Progress = true;
  while (!C.full() && Progress) {
    Progress = false;
    for (size_t I = 0; I < Ranking.size() && !C.full(); ++I) {
      Ranked &Rk = Ranking[I];
      while (Rk.next < Rk.sets.size()) {
        Action A;
        A.recipe = Rk.recipe->name;
        A.parameters = Rk.sets[Rk.next++];
        A.origin = "planner";
        A.why = rankWhy(Rk, I, Ranking.size(), R.bottleneck);
        if (C.fresh(A)) {
          C.add(std::move(A));
          Progress = true;
          break;
        }
      }
    }
  }
}

} // namespace

std::string preconditionFailure(const Recipe &R, const std::set<std::string> &Features) {
  for (const std::string &P : R.preconditions)
    if (!Features.count(P))
      return "needs " + P;
  for (const std::string &E : R.excludes)
    if (Features.count(E))
      return "not for a kernel with " + E;
  return "";
}

std::vector<rw::ParameterValues> parameterSets(const Recipe &R, size_t Limit) {
  std::vector<rw::ParameterValues> Out;
  auto Push = [&](const rw::ParameterValues &P) {
    if (Out.size() < Limit && std::find(Out.begin(), Out.end(), P) == Out.end())
      Out.push_back(P);
  };
  rw::ParameterValues Base;
  for (const auto &[Name, Values] : R.parameters)
    if (!Values.empty())
      Base[Name] = Values.front();
  Push(Base);
  for (const auto &[Name, Values] : R.parameters)
    for (const std::string &V : Values) {
      rw::ParameterValues P = Base;
      P[Name] = V;
      Push(P);
    }
  // The rest of the space, as an odometer over the parameters.
  std::vector<size_t> Digit(R.parameters.size(), 0);
  while (Out.size() < Limit) {
    rw::ParameterValues P;
    for (size_t I = 0; I < R.parameters.size(); ++I)
      if (!R.parameters[I].second.empty())
        P[R.parameters[I].first] = R.parameters[I].second[Digit[I]];
    Push(P);
    size_t I = 0;
    for (; I < Digit.size(); ++I) {
      if (++Digit[I] < R.parameters[I].second.size())
        break;
      Digit[I] = 0;
    }
    if (I == Digit.size())
      break;
  }
  return Out;
}

std::vector<Action> planActions(const PlanRequest &R) {
  Chooser C(R);
  std::set<std::string> Avoid = R.avoidFamilies, Refused;
  addRepairs(R, C, Avoid, Refused);
  std::vector<Ranked> Ranking = rankRecipes(R, Avoid, Refused);
  addRanked(R, C, Ranking);
  std::vector<Action> Out = C.take();
  std::sort(Out.begin(), Out.end(),
            [](const Action &A, const Action &B) { return A.key() < B.key(); });
  return Out;
}

} // namespace ave::opt
