//===- MangroveFeatures.cpp - GPU Mangrove's groups and features ----------===//

#include "MangroveFeatures.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <cstdio>
#include <mutex>
#include <regex>
#include <vector>

using namespace llvm;
using namespace warpscope;
using namespace warpscope::mangrove;

namespace {

/// GPU Mangrove's grouping, in its order: the first expression matching at
/// the opcode's start (Python's re.match) names the group. The bit width is
/// the last capture ("pred" counts as 32); with a vector capture (.v2/.v4)
/// it is the element width times the vector length. Same expressions, same
/// (ECMAScript = Python here) semantics, lazy quantifiers included.
struct Rule {
  const char *Pattern;
  const char *Group;
};
constexpr Rule Rules[] = {
    {R"((add|sub|mul|mad|mul24|mad24|sad|div|rem|abs|neg|min|max|popc|clz|bfind|fns|brev|bfe|bfi|dp4a|dp2a)[\w.]*?.[us](\d+)$)",
     "int"},
    {R"((testp|copysign|add|sub|mul|fma|mad|div|abs|neg|min|max|rcp)[\w.]*?.f(\d+)$)",
     "float"},
    {R"((sqrt|rsqrt|sin|cos|lg2|ex2)[\w.]*?.f(\d+)$)", "float.special"},
    {R"((set|setp|selp|slct)[\w.]*?.\w(\d+)$)", "comp_sel"},
    {R"((and|or|xor|not|cnot|lop3|shf|shl|shr)[\w.]*?.\w?(\d+|pred)$)",
     "logic"},
    {R"((ld.global)(.v[42])?.\w(\d+)$)", "ld.global"},
    {R"((ld)(.v[42])?.\w(\d+)$)", "ld.global"},
    {R"((ld.shared)(.v[42])?.\w(\d+)$)", "ld.shared"},
    {R"((ld.volatile.shared)(.v[42])?.\w(\d+)$)", "ld.shared"},
    {R"((ld.const)(.v[42])?.\w(\d+)$)", "ld.const"},
    {R"((ld.local)(.v[42])?.\w(\d+)$)", "ld.local"},
    {R"((ld.param)(.v[42])?.\w(\d+)$)", "ld.param"},
    {R"((st.global)(.v[42])?.\w(\d+)$)", "st.global"},
    {R"((st)(.v[42])?.\w(\d+)$)", "st.global"},
    {R"((st.shared)(.v[42])?.\w(\d+)$)", "st.shared"},
    {R"((st.volatile.shared)(.v[42])?.\w(\d+)$)", "st.shared"},
    {R"((st.const)(.v[42])?.\w(\d+)$)", "st.const"},
    {R"((st.local)(.v[42])?.\w(\d+)$)", "st.local"},
    {R"((st.param)(.v[42])?.\w(\d+)$)", "st.param"},
    {R"((mov)[\w.]*?.\w?(\d+|pred)$)", "mov"},
    {R"((cvta|cvt)[\w.]*?.\w(\d+)$)", "cvt"},
    {R"((bra|call|ret|exit)[\w.]*?$)", "control"},
    {R"((atom.global)[\w.]*?(\d+)$)", "atom.global"},
    {R"((atom.shared)[\w.]*?(\d+)$)", "atom.shared"},
    {R"(bar.sync)", "bar.sync"},
};

/// The columns of its feature table that hold group counts (cols_inst),
/// in order.
constexpr const char *TableGroups[] = {
    "float.32",         "logic.64",        "comp_sel.32",    "int.32",
    "cvt.32",           "comp_sel.64",     "mov.32",         "logic.32",
    "control",          "int.64",          "cvt.64",         "ld.global.32",
    "ld.param.64",      "st.global.32",    "ld.shared.32",   "mov.64",
    "st.shared.32",     "ld.param.32",     "bar.sync",       "float.64",
    "ld.const.64",      "ld.const.32",     "misc",           "ld.local.32",
    "st.local.32",      "st.global.64",    "atom.shared.32", "ld.shared.64",
    "st.shared.64",     "comp_sel.16",     "st.global.8",    "ld.global.8",
    "mov.16",           "ld.global.64",    "int.16",         "ld.local.8",
    "st.local.8",       "st.param.64",     "st.param.32",    "atom.global.32",
    "logic.16",         "ld.global.128",   "ld.local.64",    "st.local.64",
    "cvt.16",           "st.global.128",   "ld.shared.8",    "ld.param.8",
    "float.special.32", "float.special.64"};

const std::vector<std::regex> &compiledRules() {
  static std::vector<std::regex> R = [] {
    std::vector<std::regex> V;
    for (const Rule &Ru : Rules)
      V.emplace_back(Ru.Pattern, std::regex::ECMAScript);
    return V;
  }();
  return R;
}

std::string ratioField(uint64_t N, uint64_t D) {
  // As pandas divides: x/0 is inf, 0/0 is NaN.
  if (!D)
    return N ? "inf" : "nan";
  char Buf[40];
  std::snprintf(Buf, sizeof Buf, "%.17g", double(N) / double(D));
  return Buf;
}

std::string configuration(const Launch &L) {
  return formatv("{0},{1},{2},{3},{4},{5},{6}", L.Grid[0], L.Grid[1], L.Grid[2],
                 L.Block[0], L.Block[1], L.Block[2], L.SharedBytes)
      .str();
}

uint64_t ctas(const Launch &L) {
  return uint64_t(L.Grid[0]) * L.Grid[1] * L.Grid[2];
}
uint64_t blockThreads(const Launch &L) {
  return uint64_t(L.Block[0]) * L.Block[1] * L.Block[2];
}

uint64_t totalInst(const Launch &L) {
  uint64_t N = 0;
  for (const char *G : TableGroups)
    N += L.group(G);
  return N;
}

} // namespace

std::string mangrove::groupOf(StringRef Opcode) {
  // Memoized: a histogram names few distinct opcodes, std::regex is slow.
  static std::mutex M;
  static std::map<std::string, std::string, std::less<>> Cache;
  std::lock_guard<std::mutex> Lock(M);
  if (auto It = Cache.find(Opcode); It != Cache.end())
    return It->second;
  std::string Op = Opcode.str(), Key = "misc";
  const auto &Re = compiledRules();
  for (size_t K = 0; K < Re.size(); ++K) {
    std::smatch Mt;
    if (!std::regex_search(Op, Mt, Re[K],
                           std::regex_constants::match_continuous))
      continue;
    size_t N = Mt.size() - 1; // capture groups
    Key = Rules[K].Group;
    if (N >= 3) {
      if (!Mt[N - 1].matched)
        Key += "." + Mt[N].str();
      else
        Key += "." + std::to_string(std::stoul(Mt[N - 1].str().substr(2)) *
                                    std::stoul(Mt[N].str()));
    } else if (N >= 2) {
      Key += "." + (Mt[N].str() == "pred" ? std::string("32") : Mt[N].str());
    }
    break;
  }
  Cache.emplace(Op, Key);
  return Key;
}

ArrayRef<const char *> mangrove::tableGroups() { return TableGroups; }

uint64_t Launch::group(StringRef G) const {
  auto It = Groups.find(G.str());
  return It == Groups.end() ? 0 : It->second;
}

uint64_t Launch::volume(StringRef Prefix) const {
  uint64_t Bytes = 0;
  for (const auto &[G, N] : Groups) {
    StringRef Bits(G);
    if (!Bits.consume_front(Prefix))
      continue;
    unsigned Width = 0;
    if (!Bits.getAsInteger(10, Width))
      Bytes += N * Width / 8;
  }
  return Bytes;
}

void mangrove::addOpcode(Launch &L, StringRef Opcode, uint64_t Count) {
  L.Groups[groupOf(Opcode)] += Count;
}

std::string mangrove::samplesHeader() {
  return "bench,app,dataset,name,threads_per_CTA,CTAs,total_instructions,"
         "special_operations,logic_operations,control_operations,"
         "arithmetic_operations,sync_operations,global_memory_volume,"
         "param_memory_volume,shared_memory_volume,arithmetic_intensity,"
         "time\n";
}

std::string mangrove::samplesRow(StringRef Bench, StringRef App,
                                 StringRef Dataset, const Launch &L) {
  auto G = [&](StringRef Name) { return L.group(Name); };
  uint64_t Arithmetic = G("float.32") + G("float.64") + G("int.32") +
                        G("int.16") + G("int.64") + G("mov.32") + G("mov.64") +
                        G("mov.16") + G("comp_sel.32") + G("comp_sel.64") +
                        G("comp_sel.16") + G("cvt.16") + G("cvt.32") +
                        G("cvt.64");
  uint64_t Global =
      L.volume("st.global.") + L.volume("ld.global.") + G("atom.global.32") * 4;
  uint64_t Param = L.volume("ld.param.") + L.volume("st.param.");
  uint64_t Shared = L.volume("ld.shared.") + L.volume("st.shared.");
  std::string Time =
      L.TimeMs ? formatv("{0:F3}", *L.TimeMs * 1000.0).str() : std::string();
  return formatv("{0},{1},{2},{3},{4},{5},{6},{7},{8},{9},{10},{11},{12},{13},"
                 "{14},{15},{16}\n",
                 Bench, App, Dataset, L.Name, blockThreads(L), ctas(L),
                 totalInst(L), G("float.special.32") + G("float.special.64"),
                 G("logic.32") + G("logic.16") + G("logic.64"), G("control"),
                 Arithmetic, G("bar.sync"), Global, Param, Shared,
                 ratioField(Arithmetic, Global + Param), Time)
      .str();
}

std::string mangrove::groupsHeader() {
  std::string H = "bench,app,dataset,lseq,name,gX,gY,gZ,bX,bY,bZ,shm,CTAs,"
                  "BlockThreads,TotalThreads,V_ldGlobal,V_stGlobal,V_ldShm,"
                  "V_stShm,V_ldParam,V_stParam,V_ldLocal,V_stLocal,V_ldConst,"
                  "total_inst";
  for (const char *G : TableGroups)
    H += std::string(",") + G;
  return H + "\n";
}

std::string mangrove::groupsRow(StringRef Bench, StringRef App,
                                StringRef Dataset, uint64_t Lseq,
                                const Launch &L) {
  std::string R = formatv("{0},{1},{2},{3},{4},{5},{6},{7},{8}", Bench, App,
                          Dataset, Lseq, L.Name, configuration(L), ctas(L),
                          blockThreads(L), ctas(L) * blockThreads(L))
                      .str();
  for (const char *P :
       {"ld.global.", "st.global.", "ld.shared.", "st.shared.", "ld.param.",
        "st.param.", "ld.local.", "st.local.", "ld.const."})
    R += "," + std::to_string(L.volume(P));
  R += "," + std::to_string(totalInst(L));
  for (const char *G : TableGroups)
    R += "," + std::to_string(L.group(G));
  return R + "\n";
}
