//===- MemoryReport.cpp - Memory view: sectors and wavefronts per request -===//

#include "MemoryReport.h"
#include "Html.h"
#include "SourceText.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"
#include <algorithm>
#include <tuple>

using namespace llvm;
using namespace warpscope;

MemoryView warpscope::buildMemoryView(const Truth &T,
                                      const std::string &Filter) {
  std::optional<Regex> R;
  if (!Filter.empty())
    R.emplace(Filter);
  MemoryView V;
  for (const auto &[Mangled, F] : T.Functions) {
    std::string Name = demangle(Mangled);
    if (R && !R->match(Mangled) && !R->match(Name))
      continue;
    MemoryFunction MF{Mangled, Name, F.Kernel, {}, {}};
    std::map<std::tuple<std::string, unsigned, std::string>, MemoryLine> ByLine;
    for (const TruthInstruction &I : F.Insts) {
      const TruthMemory &C = I.Mem;
      // The instrumentation's own counter updates are not the program's.
      if (!I.Memory || I.Instrumentation ||
          !(C.GlobalRequests || C.LocalRequests || C.SharedRequests))
        continue;
      MF.Counts += C;
      std::string Access = memoryAccessKind(I.Opcode).str();
      MemoryLine &L = ByLine[{I.File, I.Line, Access}];
      L.File = I.File;
      L.Line = I.Line;
      L.Access = Access;
      ++L.Instructions;
      L.Counts += C;
      L.Stride += I.Stride;
    }
    if (ByLine.empty())
      continue;
    for (auto &[Where, L] : ByLine)
      MF.Lines.push_back(std::move(L));
    V.Functions.push_back(std::move(MF));
  }
  auto Requests = [](const TruthMemory &C) {
    return C.GlobalRequests + C.LocalRequests + C.SharedRequests;
  };
  std::stable_sort(V.Functions.begin(), V.Functions.end(),
                   [&](const MemoryFunction &A, const MemoryFunction &B) {
                     return Requests(A.Counts) > Requests(B.Counts);
                   });
  return V;
}

namespace {

std::optional<double> perRequest(uint64_t N, uint64_t Requests) {
  if (!Requests)
    return std::nullopt;
  return double(N) / double(Requests);
}

// "global 4 req, 8.00 sectors/req (ideal 4.00); shared ...": the spaces
// the counts have requests in, and atomics' distinct addresses.
std::string summary(const TruthMemory &C) {
  std::string S;
  auto Part = [&](StringRef Space, uint64_t Req, uint64_t N, uint64_t Ideal,
                  StringRef Unit) {
    if (!Req)
      return;
    S += formatv("{0}{1} {2} req, {3:F2} {4}/req (ideal {5:F2})",
                 S.empty() ? "" : "; ", Space, Req, *perRequest(N, Req), Unit,
                 *perRequest(Ideal, Req));
  };
  Part("global", C.GlobalRequests, C.GlobalSectors, C.GlobalIdealSectors,
       "sectors");
  Part("local", C.LocalRequests, C.LocalSectors, C.LocalIdealSectors,
       "sectors");
  Part("shared", C.SharedRequests, C.SharedWavefronts, C.SharedIdealWavefronts,
       "wavefronts");
  if (C.AtomicAddresses)
    S += formatv("; atomics {0} distinct addresses", C.AtomicAddresses);
  return S;
}

std::string where(const MemoryLine &L) {
  return sourceLineLabel(L.File, L.Line);
}

// "load", or "store x3" for a row summing three PTX instructions.
std::string accessLabel(const MemoryLine &L) {
  return L.Instructions > 1
             ? formatv("{0} x{1}", L.Access, L.Instructions).str()
             : L.Access;
}

json::Object countsJson(const TruthMemory &C) {
  auto Ratio = [](uint64_t N, uint64_t Req) -> json::Value {
    if (auto R = perRequest(N, Req))
      return *R;
    return nullptr;
  };
  return json::Object{
      {"global_requests", C.GlobalRequests},
      {"global_sectors", C.GlobalSectors},
      {"global_ideal_sectors", C.GlobalIdealSectors},
      {"global_sectors_per_request", Ratio(C.GlobalSectors, C.GlobalRequests)},
      {"global_ideal_sectors_per_request",
       Ratio(C.GlobalIdealSectors, C.GlobalRequests)},
      {"local_requests", C.LocalRequests},
      {"local_sectors", C.LocalSectors},
      {"local_ideal_sectors", C.LocalIdealSectors},
      {"shared_requests", C.SharedRequests},
      {"shared_wavefronts", C.SharedWavefronts},
      {"shared_ideal_wavefronts", C.SharedIdealWavefronts},
      {"shared_wavefronts_per_request",
       Ratio(C.SharedWavefronts, C.SharedRequests)},
      {"shared_ideal_wavefronts_per_request",
       Ratio(C.SharedIdealWavefronts, C.SharedRequests)},
      {"atomic_addresses", C.AtomicAddresses}};
}

} // namespace

void warpscope::renderMemoryText(const MemoryView &V, raw_ostream &OS) {
  OS << "\nMemory view (emulator ground truth, exact: 32-byte sectors, "
        "shared wavefronts; a row per access: a line's loads, stores and "
        "atomics apart, xN: N PTX instructions)\n";
  if (V.Functions.empty())
    OS << "  no memory instruction ran\n";
  for (const MemoryFunction &F : V.Functions) {
    OS << "\n"
       << (F.Kernel ? "Kernel " : "Device function ") << F.Name << "\n  "
       << summary(F.Counts) << "\n";
    for (const MemoryLine &L : F.Lines) {
      std::string Stride = describeStride(L.Stride);
      OS << formatv("  {0,-32} {1,-10} {2}{3}{4}\n", where(L), accessLabel(L),
                    summary(L.Counts), Stride.empty() ? "" : "; ", Stride);
    }
  }
}

json::Value warpscope::renderMemoryJson(const MemoryView &V) {
  json::Array Fns;
  for (const MemoryFunction &F : V.Functions) {
    json::Array Lines;
    for (const MemoryLine &L : F.Lines) {
      json::Object O = countsJson(L.Counts);
      O["file"] = L.File;
      O["line"] = L.Line;
      O["access"] = L.Access;
      O["instructions"] = L.Instructions;
      int64_t Bytes = 0;
      std::optional<double> Share = regularStride(L.Stride, Bytes);
      O["lane_pairs"] = L.Stride.LanePairs;
      O["stride_bytes"] = Share ? json::Value(Bytes) : json::Value(nullptr);
      O["stride_share"] = Share ? json::Value(*Share) : json::Value(nullptr);
      Lines.push_back(std::move(O));
    }
    json::Object O = countsJson(F.Counts);
    O["name"] = F.Name;
    O["mangled"] = F.Mangled;
    O["kernel"] = F.Kernel;
    O["lines"] = std::move(Lines);
    Fns.push_back(std::move(O));
  }
  return json::Object{{"version", 2}, {"functions", std::move(Fns)}};
}

std::string warpscope::renderMemoryHtml(const MemoryView &V) {
  std::string S;
  raw_string_ostream OS(S);
  OS << "<h2>Memory view (emulator ground truth)</h2>\n";
  if (V.Functions.empty())
    OS << "<p>No memory instruction ran.</p>\n";
  // Per request, "-" where the line has none in that space.
  auto Ratio = [](uint64_t N, uint64_t Req) {
    auto R = perRequest(N, Req);
    return R ? formatv("{0:F2}", *R).str() : std::string("-");
  };
  for (const MemoryFunction &F : V.Functions) {
    OS << "<h3>" << escapeHtml(F.Name) << "</h3>\n<p>"
       << escapeHtml(summary(F.Counts)) << "</p>\n";
    // Headers that can wrap: the table has up to thirteen columns in 1280
    // px. Local memory (spills, stack arrays) is rare: its columns only
    // where the function has local requests.
    const bool Local = F.Counts.LocalRequests != 0;
    OS << "<table class=\"memory\"><thead><tr><th>line</th><th>access</th>"
          "<th>global requests</th><th>sectors / request</th><th>ideal</th>"
       << (Local ? "<th>local requests</th><th>sectors / request</th>"
                   "<th>ideal</th>"
                 : "")
       << "<th>shared requests</th><th>wavefronts / request</th>"
          "<th>ideal</th><th>atomic addresses</th><th>stride</th></tr>"
          "</thead><tbody>\n";
    for (const MemoryLine &L : F.Lines) {
      const TruthMemory &C = L.Counts;
      OS << "<tr>" << sourceLineCell(L.File, L.Line) << "<td>"
         << escapeHtml(accessLabel(L)) << "</td><td>" << C.GlobalRequests
         << "</td><td>" << Ratio(C.GlobalSectors, C.GlobalRequests)
         << "</td><td>" << Ratio(C.GlobalIdealSectors, C.GlobalRequests)
         << "</td><td>";
      if (Local)
        OS << C.LocalRequests << "</td><td>"
           << Ratio(C.LocalSectors, C.LocalRequests) << "</td><td>"
           << Ratio(C.LocalIdealSectors, C.LocalRequests) << "</td><td>";
      OS << C.SharedRequests << "</td><td>"
         << Ratio(C.SharedWavefronts, C.SharedRequests) << "</td><td>"
         << Ratio(C.SharedIdealWavefronts, C.SharedRequests) << "</td><td>"
         << C.AtomicAddresses << "</td><td>"
         << escapeHtml(describeStride(L.Stride)) << "</td></tr>\n";
    }
    OS << "</tbody></table>\n";
  }
  return S;
}
