//===- Registry.cpp - Module, kernel and launch bookkeeping ---------------===//

#include "Registry.h"

using namespace warpscope;
using namespace warpscope::rt;

int Registry::addModule(const ModuleDescriptor *Desc) {
  std::lock_guard<std::mutex> G(Lock);
  for (size_t I = 0; I < Modules.size(); ++I)
    if (Modules[I].Desc == Desc)
      return int(I);
  int Index = int(Modules.size());
  ModuleState S;
  S.Desc = Desc;
  S.Totals.assign(Desc->NumCounters, 0);
  Modules.push_back(std::move(S));
  for (uint32_t K = 0; K < Desc->NumKernels; ++K)
    Kernels[Desc->Kernels[K].Stub] = KernelRef{Index, Desc->Kernels[K].Name};
  return Index;
}

KernelRef Registry::findKernel(const void *Stub) const {
  std::lock_guard<std::mutex> G(Lock);
  auto It = Kernels.find(Stub);
  return It == Kernels.end() ? KernelRef{} : It->second;
}

uint32_t Registry::streamIndex(const void *Stream) {
  std::lock_guard<std::mutex> G(Lock);
  if (!Stream)
    return 0;
  auto It = Streams.find(Stream);
  if (It != Streams.end())
    return It->second;
  uint32_t Index = uint32_t(Streams.size() + 1);
  Streams[Stream] = Index;
  return Index;
}

void Registry::recordLaunch(const KernelRef &K, const LaunchConfig &C) {
  std::lock_guard<std::mutex> G(Lock);
  ++Launches;
  ++Groups[{K.Module, K.Name, C}];
  if (K.Module >= 0)
    Modules[K.Module].Dirty = true;
}

void Registry::recordLeftOut(const KernelRef &K) {
  std::lock_guard<std::mutex> G(Lock);
  ++LeftOut[{K.Module, K.Name}];
}

std::map<KernelKey, uint64_t> Registry::leftOut() const {
  std::lock_guard<std::mutex> G(Lock);
  return LeftOut;
}

void Registry::recordLaunch(const KernelRef &K, const LaunchConfig &C,
                            double TimeMs, const std::vector<uint64_t> &Counts,
                            const std::string &Error) {
  std::lock_guard<std::mutex> G(Lock);
  LaunchRecord R;
  R.Sequence = Launches++;
  R.Kernel = K;
  R.Config = C;
  R.TimeMs = TimeMs;
  R.Error = Error;
  for (uint32_t I = 0; I < Counts.size(); ++I)
    if (Counts[I])
      R.Counters.emplace_back(I, Counts[I]);
  if (K.Module >= 0) {
    std::vector<uint64_t> &T = Modules[K.Module].Totals;
    for (size_t I = 0; I < Counts.size() && I < T.size(); ++I)
      T[I] += Counts[I];
    if (!Error.empty() && Modules[K.Module].Error.empty())
      Modules[K.Module].Error = Error;
  }
  Records.push_back(std::move(R));
}

void Registry::accumulate(int Module, const std::vector<uint64_t> &Counts) {
  std::lock_guard<std::mutex> G(Lock);
  std::vector<uint64_t> &T = Modules[Module].Totals;
  for (size_t I = 0; I < Counts.size() && I < T.size(); ++I)
    T[I] += Counts[I];
}

void Registry::setModuleError(int Module, const std::string &Error) {
  std::lock_guard<std::mutex> G(Lock);
  if (Modules[Module].Error.empty())
    Modules[Module].Error = Error;
}

void Registry::setReadAfterFault(int Module) {
  std::lock_guard<std::mutex> G(Lock);
  Modules[Module].ReadAfterFault = true;
}

bool Registry::recordFailure(const FailedLaunch &F) {
  std::lock_guard<std::mutex> G(Lock);
  if (Failure)
    return false;
  Failure = F;
  return true;
}

std::optional<FailedLaunch> Registry::failure() const {
  std::lock_guard<std::mutex> G(Lock);
  return Failure;
}

void Registry::recordInterrupted(const KernelRef &K, const LaunchConfig &C,
                                 int Signal) {
  std::lock_guard<std::mutex> G(Lock);
  Interrupted = InterruptedLaunch{K, C, Signal, Launches};
}

std::optional<InterruptedLaunch> Registry::interrupted() const {
  std::lock_guard<std::mutex> G(Lock);
  return Interrupted;
}

std::vector<int> Registry::takeDirtyModules() {
  std::lock_guard<std::mutex> G(Lock);
  std::vector<int> Out;
  for (size_t I = 0; I < Modules.size(); ++I)
    if (Modules[I].Dirty) {
      Modules[I].Dirty = false;
      Out.push_back(int(I));
    }
  return Out;
}

std::vector<ModuleState> Registry::modules() const {
  std::lock_guard<std::mutex> G(Lock);
  return Modules;
}

std::map<LaunchGroupKey, uint64_t> Registry::launchGroups() const {
  std::lock_guard<std::mutex> G(Lock);
  return Groups;
}

std::vector<LaunchRecord> Registry::launchRecords() const {
  std::lock_guard<std::mutex> G(Lock);
  return Records;
}

uint64_t Registry::launchCount() const {
  std::lock_guard<std::mutex> G(Lock);
  return Launches;
}

ResourceQuestions Registry::claimResourceQuestions(const KernelRef &K,
                                                   const OccupancyKey &O) {
  std::lock_guard<std::mutex> G(Lock);
  ResourceQuestions Q;
  Q.Attributes =
      Attributes.emplace(KernelKey{K.Module, K.Name}, std::nullopt).second;
  Q.Occupancy = BlocksPerSM.emplace(O, std::nullopt).second;
  return Q;
}

void Registry::setAttributes(const KernelRef &K, const KernelAttributes &A) {
  std::lock_guard<std::mutex> G(Lock);
  Attributes[{K.Module, K.Name}] = A;
}

std::optional<KernelAttributes> Registry::attributes(const KernelRef &K) const {
  std::lock_guard<std::mutex> G(Lock);
  auto It = Attributes.find({K.Module, K.Name});
  return It == Attributes.end() ? std::nullopt : It->second;
}

void Registry::setBlocksPerSM(const OccupancyKey &O,
                              std::optional<uint32_t> Blocks) {
  std::lock_guard<std::mutex> G(Lock);
  BlocksPerSM[O] = Blocks;
}

std::map<KernelKey, KernelAttributes> Registry::kernelAttributes() const {
  std::lock_guard<std::mutex> G(Lock);
  std::map<KernelKey, KernelAttributes> Out;
  for (const auto &[Key, A] : Attributes)
    if (A)
      Out[Key] = *A;
  return Out;
}

std::map<OccupancyKey, std::optional<uint32_t>> Registry::blocksPerSM() const {
  std::lock_guard<std::mutex> G(Lock);
  return BlocksPerSM;
}
