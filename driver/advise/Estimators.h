//===- Estimators.h - GPA's speedup estimators ------------------*- C++ -*-===//
//
// CGO'21 §5.2 / TPDS'21 §3.4. T: a kernel's samples, A: its active
// (issued, "selected") samples, M: samples an optimizer matched, M^L: the
// matched latency (not issued) samples.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_ADVISE_ESTIMATORS_H
#define WARPSCOPE_DRIVER_ADVISE_ESTIMATORS_H

#include <vector>

namespace warpscope::advise {

/// Eq. 2: stall elimination removes every matched sample, S = T / (T - M).
double stallElimination(double T, double M);

/// Eq. 4: latency hiding can fill stalls only with active samples,
/// S = T / (T - min(A, M^L)); never above 2 (Theorem 5.1) when M^L <= T - A.
double latencyHiding(double T, double A, double ML);

/// Function inlining: the calling convention's instructions go (stall
/// elimination of their E samples, EA of them active) and the callee's
/// code can be scheduled with the caller's (latency hiding of ML with the
/// active samples left): S = T / (T - E - min(A - EA, ML, (T - E) / 2)).
double eliminationAndHiding(double T, double A, double E, double EA, double ML);

/// One optimization scope (a loop or a function) for Eq. 5.
struct Scope {
  double Active = 0;  ///< active samples in the scope itself
  double Matched = 0; ///< matched latency samples whose innermost scope it is
  int Parent = -1;    ///< enclosing scope, -1 for none
};
/// Eq. 5 over a scope tree: each scope hides at most the active samples of
/// itself and its nested scopes, less what the nested scopes already used;
/// returns the samples hidden in all (add to the T - x of Eq. 4).
double hiddenByScopes(const std::vector<Scope> &Scopes);

/// Eq. 9: a scheduler issues if any of its W warps is ready, each with
/// probability R_I (the issued share of the samples).
double issueRate(double RI, double W);

/// Eq. 11, S^p = (1 / C_W) x C_I x f. C_W (Eq. 7) is the change of the
/// warps' work per scheduler (Work -> WorkNew), C_I (Eq. 8) the change of
/// the issue rate with the resident warps per scheduler (Active ->
/// ActiveNew).
double parallelism(double Work, double WorkNew, double Active, double ActiveNew,
                   double RI, double F = 1.0);

} // namespace warpscope::advise

#endif // WARPSCOPE_DRIVER_ADVISE_ESTIMATORS_H
