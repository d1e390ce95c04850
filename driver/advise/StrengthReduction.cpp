//===- StrengthReduction.cpp - GPA's strength reduction, per source line --===//
//
// GPA (Table 2): execution dependency stalls of long-latency arithmetic,
// estimated by stall elimination. The expensive operations are those a
// cheaper form can replace: integer division and remainder, IEEE division
// and square root, f64 arithmetic, 64-bit integer multiplies, conversions
// between integer and floating point, special functions and calls into the
// math library. Matched: the stalls blamed on them and their own active
// samples (GPA's stall elimination removes both). In hybrid mode (exact
// executions) the active samples are the kernel's apportioned by exact
// executions, and each source line's hotspot says how many expensive
// operations of which kind it has and how often they ran
// (docs/advisor.md).
//
//===----------------------------------------------------------------------===//

#include "GpaCommon.h"
#include "llvm/Support/FormatVariadic.h"
#include <set>

using namespace llvm;

namespace warpscope::advise {
namespace {

enum class Expense {
  None,
  IntDivision,
  FloatDivision, ///< IEEE division, square root, reciprocal
  Float64,
  Wide64Multiply,
  Conversion,
  SpecialFunction,
  MathCall,
};

const char *expenseName(Expense E) {
  switch (E) {
  case Expense::IntDivision:
    return "integer division/remainder";
  case Expense::FloatDivision:
    return "IEEE division/square root";
  case Expense::Float64:
    return "f64 arithmetic";
  case Expense::Wide64Multiply:
    return "64-bit integer multiply";
  case Expense::Conversion:
    return "int/float conversion";
  case Expense::SpecialFunction:
    return "special function";
  case Expense::MathCall:
    return "math library call";
  case Expense::None:
    break;
  }
  return "";
}

bool intType(StringRef T) {
  return T.size() >= 2 && (T[0] == 's' || T[0] == 'u' || T[0] == 'b') &&
         isdigit(static_cast<unsigned char>(T[1]));
}
bool floatType(StringRef T) {
  return T.size() >= 2 && T[0] == 'f' &&
         isdigit(static_cast<unsigned char>(T[1]));
}

/// PTX opcodes ("div.s32", "cvt.rn.f32.s32", "mul.lo.s64").
Expense ptxExpense(const Instr &I) {
  StringRef Op(I.Opcode);
  SmallVector<StringRef, 6> Parts;
  Op.split(Parts, '.');
  StringRef Base = Parts[0], Last = Parts.back();
  if (Base == "call")
    return StringRef(I.Callee).starts_with("__nv_") ? Expense::MathCall
                                                    : Expense::None;
  if (Base == "div" || Base == "rem")
    return intType(Last) ? Expense::IntDivision : Expense::FloatDivision;
  if ((Base == "sqrt" || Base == "rcp" || Base == "rsqrt") &&
      !Op.contains(".approx"))
    return Expense::FloatDivision;
  if (Base == "cvt" && Parts.size() >= 3) {
    StringRef To = Parts[Parts.size() - 2], From = Last;
    if ((floatType(To) && intType(From)) || (intType(To) && floatType(From)) ||
        (floatType(To) && floatType(From) && To != From &&
         (To == "f64" || From == "f64")))
      return Expense::Conversion;
    return Expense::None;
  }
  if ((Base == "mul" || Base == "mad") && (Last == "s64" || Last == "u64"))
    return Expense::Wide64Multiply;
  if (I.Class == OpClass::LongArith)
    return Last == "f64" ? Expense::Float64 : Expense::SpecialFunction;
  return Expense::None;
}

/// SASS opcodes ("MUFU.RCP", "I2F.S32", "DFMA").
Expense sassExpense(const Instr &I) {
  StringRef Base = StringRef(I.Opcode).split('.').first;
  if (Base == "MUFU")
    return Expense::SpecialFunction;
  if (Base == "I2F" || Base == "F2I" || Base == "F2F" || Base == "I2FP" ||
      Base == "F2IP")
    return Expense::Conversion;
  if (Base.starts_with("D") && I.Class == OpClass::LongArith)
    return Expense::Float64;
  if (Base == "CALL" && StringRef(I.Callee).starts_with("__nv_"))
    return Expense::MathCall;
  return Expense::None;
}

Expense expense(const Instr &I) {
  if (I.Class == OpClass::Memory || I.Class == OpClass::Sync)
    return Expense::None;
  return !I.Opcode.empty() && isupper(static_cast<unsigned char>(I.Opcode[0]))
             ? sassExpense(I)
             : ptxExpense(I);
}

const char *hintFor(Expense E) {
  switch (E) {
  case Expense::IntDivision:
    return "Integer division and remainder are a sequence of about 20 "
           "instructions: by a power of two, use a shift and a mask (pass "
           "the log2); by a loop-invariant value, compute its reciprocal "
           "once (division by invariant integers with __umulhi), or index "
           "with a 2D grid instead of dividing a flat index.";
  case Expense::FloatDivision:
    return "IEEE division and square root are instruction sequences: "
           "multiply by a reciprocal computed once, or use __fdividef, "
           "rsqrtf and __frcp_rn where their accuracy is enough.";
  case Expense::Float64:
    return "f64 arithmetic runs on the slower FP64 pipe: use f32 where the "
           "precision allows (check for double literals and math calls "
           "promoting floats).";
  case Expense::Wide64Multiply:
    return "64-bit integer multiplies are several instructions: do index "
           "arithmetic in 32 bits where the range allows, or strength-reduce "
           "the multiply by the loop index to an addition.";
  case Expense::Conversion:
    return "Conversions between integer and floating point use the "
           "quarter-rate conversion pipe: keep the value in one type (carry "
           "a float counter in the loop instead of converting the index).";
  case Expense::SpecialFunction:
  case Expense::MathCall:
    return "Precompute transcendental values outside the loop, use "
           "identities that avoid them, or the fast intrinsics where their "
           "accuracy is enough.";
  case Expense::None:
    break;
  }
  return "";
}

/// What one source line holds: expensive operations by kind, their exact
/// warp executions (hybrid mode), and the samples matched there.
struct LineExpense {
  const FunctionBlame *B = nullptr;
  unsigned First = 0; ///< an instruction of the line, for the hotspot
  std::map<Expense, unsigned> Ops;
  double Executions = 0, Blamed = 0, Active = 0;
};

} // namespace

void strengthReduction(const Inputs &, const KernelView &V, Match &M) {
  std::map<std::tuple<std::string, std::string, unsigned>, LineExpense> Lines;
  std::set<Expense> Kinds;
  double Executions = 0, AllExecutions = 0;
  bool Exact = true;
  for (const FunctionBlame *B : V.Parts) {
    const Function &F = *B->Code;
    std::vector<Expense> Kind(F.Instrs.size());
    std::vector<double> Active = activeSamples(*B);
    Exact &= B->Executed.size() == F.Instrs.size();
    for (double E : B->Executed)
      AllExecutions += E;
    for (unsigned I = 0; I < F.Instrs.size(); ++I) {
      Kind[I] = expense(F.Instrs[I]);
      if (Kind[I] == Expense::None)
        continue;
      LineExpense &L = Lines[{F.Name, F.Instrs[I].File, F.Instrs[I].Line}];
      if (!L.B) {
        L.B = B;
        L.First = I;
      }
      ++L.Ops[Kind[I]];
      L.Active += Active[I];
      if (B->Executed.size() == F.Instrs.size()) {
        L.Executions += B->Executed[I];
        Executions += B->Executed[I];
      }
    }
    // A write-after-read waits for the operand read, not the result.
    for (const BlameEdge &E : B->Edges)
      if (!*E.PrunedBy && E.Samples > 0 && E.Kind == StallKind::ExecDep &&
          E.Class != DepClass::WriteAfterRead && Kind[E.Def] != Expense::None)
        Lines[{F.Name, F.Instrs[E.Def].File, F.Instrs[E.Def].Line}].Blamed +=
            E.Samples;
  }
  for (auto &[Key, L] : Lines) {
    double N = L.Blamed + L.Active;
    if (N <= 0)
      continue;
    M.M += N;
    std::string Ops;
    for (auto &[K, Count] : L.Ops) {
      Ops +=
          formatv("{0}{1} {2}", Ops.empty() ? "" : ", ", Count, expenseName(K))
              .str();
      Kinds.insert(K);
    }
    std::string Ev =
        formatv("{0}; {1} stalls blamed on them, {2} active", Ops,
                formatNumber(L.Blamed, 1), formatNumber(L.Active, 1))
            .str();
    if (L.Executions > 0)
      Ev += formatv("; {0} warp executions (exact)",
                    formatNumber(L.Executions, 0))
                .str();
    M.Hotspots.push_back(instrHotspot(*L.B, L.First, N, Ev));
  }
  if (Exact && AllExecutions > 0 && Executions > 0)
    M.Evidence = formatv("expensive operations are {0}% of the kernel's "
                         "warp instructions (exact)",
                         formatNumber(100 * Executions / AllExecutions, 1))
                     .str();
  std::set<std::string> Seen;
  for (Expense K : Kinds)
    if (Seen.insert(hintFor(K)).second)
      M.Hints.push_back(hintFor(K));
}

} // namespace warpscope::advise
