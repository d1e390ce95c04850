#include "TestUtil.h"
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace emutest {

std::string readPtx(const std::string &Name) {
  std::ifstream In(std::string(EMU_TEST_PTX_DIR) + "/" + Name);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

std::unique_ptr<Module> load(const std::string &Name) {
  std::string Text = readPtx(Name);
  EXPECT_FALSE(Text.empty()) << "missing " << Name;
  std::string Err;
  auto M = loadPtx(Text, Name, Err);
  EXPECT_TRUE(M) << Err;
  return M;
}

std::unique_ptr<Module> loadText(const std::string &Text, std::string *ErrOut) {
  std::string Err;
  auto M = loadPtx(Text, "inline.ptx", Err);
  if (ErrOut)
    *ErrOut = Err;
  return M;
}

bool launch(Module &M, const std::string &K, Dim3 G, Dim3 B, const Args &A,
            std::string *ErrOut, uint32_t Dyn, bool Checked,
            LaunchFault *Fault) {
  std::vector<void *> Ptrs;
  for (auto &Bl : A.Blobs)
    Ptrs.push_back((void *)Bl.data());
  LaunchParams P;
  P.Grid = G;
  P.Block = B;
  P.DynamicSharedBytes = Dyn;
  P.Args = Ptrs.data();
  P.CheckAddresses = Checked;
  std::string Err;
  bool Ok = M.launch(K, P, Err, Fault);
  if (ErrOut)
    *ErrOut = Err;
  else
    EXPECT_TRUE(Ok) << Err;
  return Ok;
}

std::string firstKernel(Module &M) {
  return M.kernels().empty() ? "" : M.kernels()[0].Name;
}

std::string kernelNamed(Module &M, const std::string &Plain) {
  for (auto &K : M.kernels())
    if (K.Name.find(std::to_string(Plain.size()) + Plain) != std::string::npos)
      return K.Name;
  ADD_FAILURE() << "no kernel " << Plain;
  return "";
}

std::unique_ptr<Module> loadBody(const std::string &Body) {
  std::string Err;
  auto M = loadText(std::string(PtxHeader) + Body, &Err);
  EXPECT_TRUE(M) << Err;
  return M;
}

static std::string *CapturedPrintf = nullptr;
void capturePrintf(std::string *Into) {
  CapturedPrintf = Into;
  setPrintfSink(
      [](const char *Text, size_t Len) { CapturedPrintf->append(Text, Len); });
}

// The "modeled" object of kernel k's one launch (modeledCycles).
static nlohmann::json modeledLaunch(const std::string &Text,
                                    const std::string &What) {
  std::string Err;
  auto M = loadText(Text, &Err);
  EXPECT_TRUE(M) << What << ": " << Err;
  if (!M)
    return nlohmann::json::object();
  setenv("WARPSCOPE_EMU_MODEL", "h100-sxm", 1);
  const bool Ok = launch(*M, "k", {1, 1, 1}, {32, 1, 1}, Args(), &Err);
  unsetenv("WARPSCOPE_EMU_MODEL");
  EXPECT_TRUE(Ok) << What << ": " << Err;
  if (!Ok)
    return nlohmann::json::object();
  auto T = nlohmann::json::parse(M->groundTruthJson());
  return T["launches"][0]["modeled"];
}

uint64_t modeledCycles(const std::string &Text, const std::string &What) {
  return modeledLaunch(Text, What).value("cycles", uint64_t(0));
}

uint64_t modeledInstructions(const std::string &Text, const std::string &What) {
  return modeledLaunch(Text, What).value("instructions", uint64_t(0));
}

static std::string field(const std::string &Obj, const std::string &Key) {
  std::string K = "\"" + Key + "\":";
  size_t P = Obj.find(K);
  if (P == std::string::npos)
    return "";
  P += K.size();
  if (Obj[P] == '"') {
    size_t E = Obj.find('"', P + 1);
    return Obj.substr(P + 1, E - P - 1);
  }
  size_t E = Obj.find_first_of(",}", P);
  return Obj.substr(P, E - P);
}

std::vector<InstTruth> truthOf(const std::string &Json,
                               const std::string &Func) {
  std::vector<InstTruth> Out;
  size_t P = Json.find("{\"name\":\"" + Func + "\"");
  if (P == std::string::npos)
    return Out;
  size_t End = Json.find("]}", P);
  size_t Q = Json.find("\"instructions\":[", P);
  Q = Json.find('{', Q);
  while (Q != std::string::npos && Q < End) {
    size_t E = Json.find('}', Q);
    std::string Obj = Json.substr(Q, E - Q + 1);
    InstTruth T;
    T.Opcode = field(Obj, "opcode");
    T.Marker = field(Obj, "marker");
    T.Warp = std::stoull(field(Obj, "warp_executions"));
    T.Thread = std::stoull(field(Obj, "thread_executions"));
    T.PtxLine = (unsigned)std::stoul(field(Obj, "ptx_line"));
    std::string L = field(Obj, "line");
    if (!L.empty())
      T.Line = (unsigned)std::stoul(L);
    std::string V = field(Obj, "visits");
    if (!V.empty()) {
      T.HasVisits = true;
      T.Visits = std::stoull(V);
      T.Divergent = std::stoull(field(Obj, "divergent"));
    }
    Out.push_back(T);
    Q = Json.find('{', E);
  }
  return Out;
}

} // namespace emutest
