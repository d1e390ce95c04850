//===- Legend.cpp - What each number of a report means --------------------===//

#include "Legend.h"
#include "Html.h"

using namespace llvm;
using namespace warpscope;

const std::vector<LegendEntry> &warpscope::reportLegend() {
  static const std::vector<LegendEntry> Legend = {
      {"basic block executions",
       "times a basic block (a straight-line piece of the compiled function, "
       "not a CUDA thread block) ran, over all launches: \"warp\" counts once "
       "per warp, \"thread\" once per active thread"},
      {"SIMD efficiency", "thread executions / (32 x warp executions): the "
                          "average share of a warp's 32 lanes that were "
                          "active, in %"},
      {"branch efficiency", "1 - divergent / visits over the function's "
                            "probed branches, in %"},
      {"time",
       "milliseconds, summed over launches: on a GPU the kernel time "
       "CUDA events measured; on the emulator the host CPU's wall-clock "
       "time the emulation took, which is not a GPU time"},
      {"PTX instructions", "PTX instructions executed: \"warp\" once per "
                           "warp, \"thread\" once per active thread"},
      {"plain build",
       "the program compiled without the plugin: \"ratio\" is the "
       "instrumented build's own PTX instructions (probes left out) over "
       "the plain build's, \"distance\" the sum over opcodes of their "
       "difference over the plain total (0: the same); its histogram is its "
       "PTX on the same blocks, counts from the instrumented run"},
      {"arithmetic intensity",
       "FLOPs per byte that the function's global-memory instructions "
       "accessed (FLOP/B; bytes the instructions name, not DRAM traffic)"},
      {"visits", "times a warp reached the branch (count of warp arrivals)"},
      {"divergent", "visits on which the warp's active threads went more "
                    "than one way (count)"},
      {"rate", "divergent / visits of this source branch, in %"},
      {"share", "this source branch's divergent visits / all divergent "
                "visits of the function, in %"},
      {"copies", "branches the compiler made of one source branch (unrolled "
                 "or duplicated code): a row sums them; the JSON report "
                 "lists each under \"branches\""},
      {"cond true", "active threads that took the true side of the source "
                    "condition (the if or loop condition as written), in %; "
                    "\"-\" where the build could not tell which compiled "
                    "successor that is (see \"to 1st succ\")"},
      {"to 1st succ", "active threads that went to the branch's first "
                      "successor in the compiled code (the true side of the "
                      "LLVM IR condition, which the optimiser may have "
                      "inverted relative to the source's condition), in %; "
                      "\"-\" for a row of several copies"},
      {"concentration", "the fewest source branches that together hold 90% "
                        "of the function's divergent visits"},
      {"calls", "calls made at a call site: its block's executions times "
                "the block's calls of that callee (warp and thread level)"},
      {"with callees", "a kernel's totals plus those of every device "
                       "function it reaches through calls; given only when "
                       "exact: no such function is also called from "
                       "elsewhere in this run and no call is indirect"},
      {"line executions", "source view: thread executions of the most "
                          "executed basic block that has code on the line "
                          "(each block counted once per line it covers)"},
      {"line instructions", "source view: PTX instructions (thread-level) of "
                            "the basic blocks that start on the line"},
  };
  return Legend;
}

void warpscope::renderLegendText(raw_ostream &OS) {
  OS << "\nLegend:\n";
  for (const LegendEntry &E : reportLegend())
    OS << "  " << E.Term << ": " << E.Meaning << "\n";
}

json::Object warpscope::legendJson() {
  json::Object Out;
  for (const LegendEntry &E : reportLegend())
    Out[E.Term] = E.Meaning;
  return Out;
}

void warpscope::renderLegendHtml(raw_ostream &OS) {
  OS << "<details class=\"legend\" open><summary>Legend</summary><dl>";
  for (const LegendEntry &E : reportLegend())
    OS << "<dt>" << escapeHtml(E.Term) << "</dt><dd>" << escapeHtml(E.Meaning)
       << "</dd>";
  OS << "</dl></details>\n";
}
