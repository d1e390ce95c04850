//===- StaticCommand.cpp - warpscope static: PTX counts without a run -----===//
//
// Per kernel (and device function): the static PTX instructions of a .ptx
// file, or of a .cu file compiled to PTX with the configured clang, by
// opcode and by class. Instrumentation (probe scopes) is counted apart, so
// an instrumented build reports the program's own instructions.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "FormatOption.h"
#include "Paths.h"
#include "warpscope/PTX/BlockHistograms.h"
#include "warpscope/PTX/InstructionClasses.h"
#include "warpscope/PTX/PtxListing.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using namespace llvm;
using namespace warpscope;

cl::SubCommand warpscope::StaticSub(
    "static", "Static per-kernel PTX instruction counts of a .cu or .ptx "
              "file, without running anything");

static cl::opt<std::string> Input(cl::Positional,
                                  cl::desc("<FILE.cu|FILE.ptx>"), cl::Required,
                                  cl::sub(StaticSub));
static cl::list<std::string> ClangArgs(cl::ConsumeAfter,
                                       cl::desc("<clang flags for a .cu>..."),
                                       cl::sub(StaticSub));
static FormatOption StaticFormat("format", cl::desc("Output format"),
                                 formats{
                                     {OutputFormat::Text, "a table (default)"},
                                     {OutputFormat::Json, "one JSON object"}},
                                 cl::sub(StaticSub));
static cl::opt<std::string> Arch("arch", cl::desc("GPU for a .cu (sm_90)"),
                                 cl::init("sm_90"), cl::sub(StaticSub));
static cl::opt<bool> Opcodes("opcodes",
                             cl::desc("Text: also list every opcode"),
                             cl::sub(StaticSub));

namespace {

int fail(const Twine &Msg) {
  WithColor::error(errs(), "warpscope static") << Msg << "\n";
  return 2;
}

/// Compiles Cu to PTX with clang 22; the PTX text, or an error.
Expected<std::string> compileToPtx(StringRef Cu) {
  SmallString<128> Out;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("warpscope-static", "ptx", Out))
    return createStringError(EC, "cannot create a temporary file");
  std::string Clang = clangPath();
  std::vector<std::string> Args = {Clang,
                                   "-x",
                                   "cuda",
                                   "--cuda-gpu-arch=" + Arch,
                                   "--cuda-device-only",
                                   "-S",
                                   "-Wno-unknown-cuda-version",
                                   "--cuda-path=" + cudaHome()};
  for (const std::string &A : ClangArgs)
    if (A != "--")
      Args.push_back(A);
  Args.push_back(Cu.str());
  Args.push_back("-o");
  Args.push_back(std::string(Out));
  std::vector<StringRef> Refs(Args.begin(), Args.end());
  std::string Msg;
  int Rc = sys::ExecuteAndWait(Clang, Refs, std::nullopt, {}, 0, 0, &Msg);
  auto Buf = MemoryBuffer::getFile(Out);
  sys::fs::remove(Out);
  if (Rc != 0)
    return createStringError(
        Cu + ": clang failed (" +
        (Msg.empty() ? "exit " + std::to_string(Rc) : Msg) +
        "); see its messages above");
  if (!Buf)
    return createStringError(Cu + ": clang wrote no PTX");
  return (*Buf)->getBuffer().str();
}

} // namespace

int warpscope::runStatic() {
  std::string Text;
  StringRef Ext = sys::path::extension(Input);
  if (Ext == ".ptx") {
    if (!ClangArgs.empty())
      return fail("'" + ClangArgs.front() +
                  "' after the file: options go before it, and clang flags "
                  "(after --) only apply to a .cu");
    auto Buf = MemoryBuffer::getFile(Input);
    if (!Buf)
      return fail(Input + ": cannot read");
    Text = (*Buf)->getBuffer().str();
  } else if (Ext == ".cu") {
    Expected<std::string> Ptx = compileToPtx(Input);
    if (!Ptx)
      return fail(toString(Ptx.takeError()));
    Text = *Ptx;
  } else {
    return fail(Input + ": expected a .cu or .ptx file");
  }
  ptx::Module M;
  std::string Error;
  if (!ptx::parse(Text, M, Error))
    return fail(Input + ": " + Error);
  if (M.Functions.empty())
    return fail(Input + ": holds no PTX function; give the PTX of a CUDA "
                        "module (clang++ --cuda-device-only -S) or a .cu");

  json::Array Functions;
  for (const ptx::Function &F : M.Functions) {
    std::map<std::string, uint64_t> ByOpcode, ByClass;
    uint64_t Total = 0;
    for (const ptx::Block &B : F.Blocks)
      for (const ptx::Item &I : B.Items)
        if (I.Kind == ptx::Item::Instruction) {
          ++ByOpcode[I.Opcode];
          ++ByClass[ptx::classify(I.Opcode).Class];
          ++Total;
        }
    if (StaticFormat == OutputFormat::Text) {
      outs() << formatv("{0} {1}: {2} PTX instructions in {3} blocks",
                        F.Kernel ? "kernel" : "device function",
                        demangle(F.Name), Total, F.Blocks.size());
      if (F.InstrumentationInstructions) {
        // Instrumented: how many the markers tie to IR blocks.
        ptx::FunctionHistograms H = ptx::attribute(F);
        uint64_t Loose = 0;
        for (const auto &[Op, N] : H.Unattributed)
          Loose += N;
        outs() << formatv(" (+{0} of instrumentation; {1} in {2} blocks not "
                          "tied to an IR block)",
                          F.InstrumentationInstructions, Loose,
                          H.UnattributedBlocks);
        if (Opcodes)
          for (unsigned L : H.UnattributedLines)
            outs() << formatv("\n    not tied: PTX line {0}", L);
      }
      outs() << "\n";
      for (const auto &[Class, N] : ByClass)
        outs() << formatv("  {0,-16} {1,8}\n", Class, N);
      if (Opcodes)
        for (const auto &[Op, N] : ByOpcode)
          outs() << formatv("    {0,-28} {1,8}\n", Op, N);
      continue;
    }
    json::Object Op, Cl;
    for (const auto &[K, N] : ByOpcode)
      Op[K] = N;
    for (const auto &[K, N] : ByClass)
      Cl[K] = N;
    Functions.push_back(json::Object{
        {"name", demangle(F.Name)},
        {"mangled", F.Name},
        {"kind", F.Kernel ? "kernel" : "device"},
        {"instructions", Total},
        {"blocks", F.Blocks.size()},
        {"instrumentation_instructions", F.InstrumentationInstructions},
        {"classes", std::move(Cl)},
        {"opcodes", std::move(Op)}});
  }
  if (StaticFormat == OutputFormat::Json)
    outs() << formatv("{0:2}", json::Value(json::Object{
                                   {"schema", "warpscope-static/1"},
                                   {"input", Input},
                                   {"target", M.Target},
                                   {"functions", std::move(Functions)}}))
           << "\n";
  return 0;
}
