//===- Resimulate.h - Estimates the timing model confirms -------*- C++ -*-===//
//
// `warpscope advise --what-if` (issue 35, item 2): advice whose change is a
// launch or machine parameter (Advice::Change: the occupancy limiter's
// registers or shared memory, block or thread increase of a grid-stride
// loop) is estimated by running the directory's recorded program again on
// the emulator with that one parameter changed (WARPSCOPE_EMU_WHATIF,
// include/warpscope/Emu/WhatIf.h) and taking the kernel's modeled time
// before over after, the launches' fixed cost included. The advice then
// says "re-simulated"; where the program cannot be run again it keeps its
// formula estimate and says why.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_ADVISE_RESIMULATE_H
#define WARPSCOPE_DRIVER_ADVISE_RESIMULATE_H

#include "Advice.h"
#include <functional>

namespace warpscope {
class RunDirectory;
}

namespace warpscope::advise {

/// Runs the program for one what-if and returns the kernel's modeled
/// cycles (the SMs' and the launches' fixed cost), or Why it could not.
using WhatIfRunner = std::function<std::optional<double>(
    const emu::WhatIf &Change, std::string &Why)>;

/// The runner for the run directory Run: its run log's last recorded
/// command (the program after `--`), run under `warpscope run --emulate`
/// with the directory's timing-model configuration.
WhatIfRunner programRunner(RunDirectory &Run, const Inputs &In);

/// Re-estimates every advice of All with a Change by Run; advice whose
/// re-simulated speedup is under 1.01 is dropped with a note in Notes.
void resimulate(const Inputs &In, const WhatIfRunner &Run,
                std::vector<Advice> &All, std::vector<std::string> &Notes);

} // namespace warpscope::advise

#endif // WARPSCOPE_DRIVER_ADVISE_RESIMULATE_H
