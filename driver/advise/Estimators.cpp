//===- Estimators.cpp - GPA's speedup estimators --------------------------===//

#include "Estimators.h"
#include <algorithm>
#include <cmath>

namespace warpscope::advise {

double stallElimination(double T, double M) {
  if (T <= 0 || M <= 0)
    return 1.0;
  // A kernel cannot take no time: at most 99% of it goes (100x).
  M = std::min(M, 0.99 * T);
  return T / (T - M);
}

double latencyHiding(double T, double A, double ML) {
  if (T <= 0)
    return 1.0;
  double Hidden = std::max(0.0, std::min(A, ML));
  return T / (T - std::min(Hidden, T / 2));
}

double eliminationAndHiding(double T, double A, double E, double EA,
                            double ML) {
  if (T <= 0)
    return 1.0;
  E = std::clamp(E, 0.0, 0.99 * T);
  double Rest = T - E;
  double Hidden = std::max(0.0, std::min({A - EA, ML, Rest / 2}));
  return T / (Rest - Hidden);
}

double hiddenByScopes(const std::vector<Scope> &Scopes) {
  size_t N = Scopes.size();
  // Nested active samples, and depth so that inner scopes go first.
  std::vector<double> Nested(N, 0), Used(N, 0);
  std::vector<unsigned> Depth(N, 0);
  for (size_t S = 0; S < N; ++S) {
    for (int P = int(S); P >= 0; P = Scopes[P].Parent) {
      Nested[P] += Scopes[S].Active;
      if (P != int(S))
        ++Depth[S];
    }
  }
  std::vector<size_t> Order(N);
  for (size_t S = 0; S < N; ++S)
    Order[S] = S;
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return Depth[A] > Depth[B]; });
  double Hidden = 0;
  for (size_t S : Order) {
    double Avail = std::max(0.0, Nested[S] - Used[S]);
    double H = std::min(Avail, Scopes[S].Matched);
    Hidden += H;
    // What this scope used, plus what its children used, is gone for the
    // enclosing scope.
    if (Scopes[S].Parent >= 0)
      Used[Scopes[S].Parent] += Used[S] + H;
  }
  return Hidden;
}

double issueRate(double RI, double W) {
  RI = std::clamp(RI, 0.0, 1.0);
  return 1.0 - std::pow(1.0 - RI, std::max(W, 0.0));
}

double parallelism(double Work, double WorkNew, double Active, double ActiveNew,
                   double RI, double F) {
  if (Work <= 0 || WorkNew <= 0)
    return 1.0;
  double CW = WorkNew / Work;
  double I = issueRate(RI, Active), INew = issueRate(RI, ActiveNew);
  if (I <= 0)
    return 1.0;
  double CI = INew / I;
  return 1.0 / CW * CI * F;
}

} // namespace warpscope::advise
