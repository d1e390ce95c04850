//===- FakeCore.cpp - a tiny stand-in for the emulator core (tests only) --===//
//
// Implements runtime/emu/Emulator.h just well enough to test the stand-in
// runtime without the real core: a line-based scan of the PTX for entries,
// their .param lists and module-scope .global/.const variables (storage is
// allocated, zero-filled). launch() records what it got; kernels whose name
// contains "fail" fail; PTX containing "FAKE_REJECT" is rejected. Each
// launch prints "fake-launch <kernel> grid=X,Y,Z block=X,Y,Z" through the
// printf sink.
//
//===----------------------------------------------------------------------===//
#include "FakeCore.h"

#include <cstdio>
#include <cstring>
#include <sstream>

namespace warpscope::emu {

namespace {

void (*Sink)(const char *, size_t) = nullptr;

void emit(const std::string &S) {
  if (Sink)
    Sink(S.data(), S.size());
  else
    fwrite(S.data(), 1, S.size(), stdout);
}

uint32_t typeSize(const std::string &T) {
  if (T.size() < 3 || T[0] != '.')
    return 0;
  char C = T[1];
  if (C != 'u' && C != 's' && C != 'b' && C != 'f')
    return 0;
  int Bits = atoi(T.c_str() + 2);
  return Bits >= 8 ? uint32_t(Bits / 8) : 0;
}

/// "name[16]" -> ("name", 16); "name" -> ("name", 1).
void splitArray(std::string Tok, std::string &Name, uint32_t &Count) {
  while (!Tok.empty() && (Tok.back() == ',' || Tok.back() == ';'))
    Tok.pop_back();
  Count = 1;
  size_t B = Tok.find('[');
  if (B != std::string::npos) {
    Count = uint32_t(strtoul(Tok.c_str() + B + 1, nullptr, 10));
    Tok.resize(B);
  }
  Name = Tok;
}

class FakeModule : public Module {
public:
  std::string Name;
  std::vector<KernelInfo> Kernels;
  std::vector<GlobalInfo> Globals;
  std::vector<std::vector<uint8_t>> Storage;
  unsigned Launches = 0;

  const std::vector<KernelInfo> &kernels() const override { return Kernels; }
  const std::vector<GlobalInfo> &globals() const override { return Globals; }
  const KernelInfo *findKernel(const std::string &N) const override {
    for (const KernelInfo &K : Kernels)
      if (K.Name == N)
        return &K;
    return nullptr;
  }
  const GlobalInfo *findGlobal(const std::string &N) const override {
    for (const GlobalInfo &G : Globals)
      if (G.Name == N)
        return &G;
    return nullptr;
  }
  bool launch(const std::string &Kernel, const LaunchParams &P,
              std::string &Error, LaunchFault *Fault = nullptr) override {
    const KernelInfo *K = findKernel(Kernel);
    fake::LaunchRecord R;
    R.Module = Name;
    R.Kernel = Kernel;
    R.Params = P;
    if (K)
      for (size_t I = 0; I < K->Params.size(); ++I) {
        const uint8_t *A = static_cast<const uint8_t *>(P.Args[I]);
        R.ArgBytes.emplace_back(A, A + K->Params[I].Size);
      }
    fake::launches().push_back(R);
    ++Launches;
    std::ostringstream OS;
    OS << "fake-launch " << Kernel << " grid=" << P.Grid.X << ',' << P.Grid.Y
       << ',' << P.Grid.Z << " block=" << P.Block.X << ',' << P.Block.Y << ','
       << P.Block.Z << "\n";
    emit(OS.str());
    if (Kernel.find("fail") != std::string::npos) {
      Error = "fake: kernel " + Kernel +
              " failed: thread (0,0,0) block (0,0,0): illegal address";
      if (Fault)
        *Fault = LaunchFault::Failure;
      return false;
    }
    return true;
  }
  std::string groundTruthJson() const override {
    return "{\"schema\": \"warpscope-emu/1\", \"module\": \"" + Name +
           "\", \"fake\": true, \"launches\": " + std::to_string(Launches) +
           "}\n";
  }
};

} // namespace

namespace fake {
std::vector<LaunchRecord> &launches() {
  static std::vector<LaunchRecord> L;
  return L;
}
std::map<uintptr_t, size_t> &allocations() {
  static std::map<uintptr_t, size_t> M;
  return M;
}
std::map<uint64_t, ImageRecord> &images() {
  static std::map<uint64_t, ImageRecord> M;
  return M;
}
std::vector<std::string> &loadedModules() {
  static std::vector<std::string> L;
  return L;
}
} // namespace fake

std::unique_ptr<Module> loadPtx(const std::string &PtxText,
                                const std::string &ModuleName,
                                std::string &Error) {
  fake::loadedModules().push_back(ModuleName);
  if (PtxText.find("FAKE_REJECT") != std::string::npos) {
    Error = ModuleName + ":1: fake: unsupported PTX";
    return nullptr;
  }
  auto M = std::make_unique<FakeModule>();
  M->Name = ModuleName;
  std::istringstream In(PtxText);
  std::string Line;
  KernelInfo *Cur = nullptr;
  bool InParams = false;
  while (std::getline(In, Line)) {
    std::istringstream LS(Line);
    std::vector<std::string> Toks;
    for (std::string T; LS >> T;)
      Toks.push_back(T);
    if (Toks.empty())
      continue;
    auto Has = [&](const char *T) {
      for (auto &X : Toks)
        if (X == T)
          return true;
      return false;
    };
    if (Has(".entry")) {
      for (size_t I = 0; I + 1 < Toks.size(); ++I)
        if (Toks[I] == ".entry") {
          std::string N = Toks[I + 1];
          size_t P = N.find('(');
          if (P != std::string::npos)
            N.resize(P);
          M->Kernels.push_back(KernelInfo());
          Cur = &M->Kernels.back();
          Cur->Name = N;
          Cur->NumRegisters = 32;
          InParams = true;
        }
      continue;
    }
    if (InParams && Toks[0] == ".param" && Cur) {
      ParamInfo P;
      uint32_t Elem = 0, Count = 1;
      for (size_t I = 1; I < Toks.size(); ++I) {
        if (Toks[I] == ".align" && I + 1 < Toks.size())
          P.Align = uint32_t(atoi(Toks[++I].c_str()));
        else if (uint32_t S = typeSize(Toks[I]))
          Elem = S;
      }
      splitArray(Toks.back(), P.Name, Count);
      P.Size = Elem * Count;
      if (P.Align <= 1 && Count == 1)
        P.Align = Elem;
      Cur->Params.push_back(P);
      continue;
    }
    if (InParams && Toks[0][0] == ')') {
      InParams = false;
      continue;
    }
    if ((Has(".global") || Has(".const")) && !Has(".func") &&
        Toks[0] != ".extern") {
      uint32_t Elem = 0;
      std::string NameTok;
      for (size_t I = 0; I < Toks.size(); ++I) {
        if (Toks[I] == "=")
          break;
        if (Toks[I] == ".align") {
          ++I;
          continue;
        }
        if (uint32_t S = typeSize(Toks[I]))
          Elem = S;
        else if (Toks[I][0] != '.')
          NameTok = Toks[I];
      }
      if (!Elem || NameTok.empty())
        continue;
      GlobalInfo G;
      uint32_t Count;
      splitArray(NameTok, G.Name, Count);
      G.Size = size_t(Elem) * Count;
      M->Storage.emplace_back(G.Size ? G.Size : 1, 0);
      G.Address = M->Storage.back().data();
      M->Globals.push_back(G);
    }
  }
  if (M->Kernels.empty() && M->Globals.empty()) {
    Error = ModuleName + ":1: fake: no .entry and no variables";
    return nullptr;
  }
  return M;
}

void setPrintfSink(void (*S)(const char *Text, size_t Len)) { Sink = S; }

void registerAllocation(void *Ptr, size_t Size) {
  fake::allocations()[reinterpret_cast<uintptr_t>(Ptr)] = Size;
}

void unregisterAllocation(void *Ptr) {
  fake::allocations().erase(reinterpret_cast<uintptr_t>(Ptr));
}

uint64_t registerTexture(const ImageDesc &Image, const SamplerDesc &Sampler,
                         std::string &) {
  static uint64_t Next = 100;
  uint64_t H = Next++;
  fake::images()[H] = {Image, Sampler, false};
  return H;
}

uint64_t registerSurface(const ImageDesc &Image, std::string &) {
  static uint64_t Next = 100;
  uint64_t H = Next++;
  fake::images()[H] = {Image, SamplerDesc(), true};
  return H;
}

bool unregisterImage(uint64_t Handle) {
  return fake::images().erase(Handle) != 0;
}

namespace {
int FakeInterrupt = 0;
} // namespace

void requestInterrupt(int Signal) { FakeInterrupt = Signal; }
void registerDeviceMemory(void *, size_t) {}
int interruptSignal() { return FakeInterrupt; }

} // namespace warpscope::emu
