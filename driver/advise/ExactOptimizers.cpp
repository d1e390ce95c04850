//===- ExactOptimizers.cpp - Advice only exact counts allow ---------------===//
//
// Issue 18 item 4: divergence, uncoalesced access, shared-memory bank
// conflicts, occupancy limiter; filled in by the advisor work.
//
//===----------------------------------------------------------------------===//

#include "Advice.h"

namespace warpscope::advise {

std::vector<std::unique_ptr<Optimizer>> exactOptimizers() { return {}; }

} // namespace warpscope::advise
