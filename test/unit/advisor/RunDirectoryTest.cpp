//===- RunDirectoryTest.cpp - A run directory's files are read once -------===//
//
// Through one RunDirectory, the views, the advisor's loader and repeated
// requests share one listing and one read of each kind of file; an error
// (a damaged file) is the same one line every time it is asked for, and is
// not read again either.
//
//===----------------------------------------------------------------------===//

#include "RunDirectory.h"
#include "AdviseInputs.h"
#include "StallReport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <gtest/gtest.h>

using namespace llvm;
using namespace warpscope;

namespace {

/// A fresh directory holding copies of the fixture files Files.
std::string directoryWith(std::initializer_list<const char *> Files) {
  SmallString<128> Dir;
  EXPECT_FALSE(sys::fs::createUniqueDirectory("wsrundir", Dir));
  for (const char *F : Files)
    EXPECT_FALSE(
        sys::fs::copy_file(std::string(WARPSCOPE_FIXTURES "/advisor/") + F,
                           Dir + "/" + sys::path::filename(F)));
  return std::string(Dir);
}

void write(const std::string &Path, StringRef Text) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  ASSERT_FALSE(EC);
  OS << Text;
}

TEST(RunDirectory, EachKindIsReadOnceForEveryUser) {
  // Modeled PC samples, their PTX listing and the ground truth of that PTX.
  std::string Dir =
      directoryWith({"model-ptx/pcsamples-4242.json", "model-ptx/ptx-saxpy.ptx",
                     "model-ptx-hybrid/emu-1-0.json"});
  RunDirectory Run(Dir);
  // As `report` does: the views, then the advice section's loader.
  Expected<const Truth &> T = Run.truth();
  ASSERT_TRUE(bool(T)) << toString(T.takeError());
  EXPECT_EQ(T->Files, 1u);
  Expected<std::optional<StallView>> Stalls =
      loadStallView(Run, ProfileSet(), "");
  ASSERT_TRUE(bool(Stalls)) << toString(Stalls.takeError());
  EXPECT_TRUE(Stalls->has_value());
  Expected<std::unique_ptr<advise::LoadedInputs>> L =
      advise::loadAdviseInputs(Run);
  ASSERT_TRUE(bool(L)) << toString(L.takeError());
  // The advisor uses the very objects the views read.
  EXPECT_EQ((*L)->GroundTruth, &*T);
  Expected<const std::optional<PcSampleSet> &> S = Run.pcSamples();
  ASSERT_TRUE(bool(S));
  EXPECT_EQ((*L)->Samples, &**S);
  EXPECT_TRUE((*L)->In.has(advise::InputKind::Samples));
  // Asked again: the same objects, nothing read again.
  Expected<const Truth &> Again = Run.truth();
  ASSERT_TRUE(bool(Again));
  EXPECT_EQ(&*Again, &*T);
  EXPECT_EQ(Run.files(files::Ptx).size(), 1u);
  EXPECT_FALSE(Run.has(files::Profile));
  const RunDirectory::Reads &R = Run.reads();
  EXPECT_EQ(R.Listings, 1u);
  EXPECT_EQ(R.Truth, 1u);
  EXPECT_EQ(R.PcSamples, 1u);
  EXPECT_EQ(R.Profiles, 0u); // the loader asks only where there are some
  EXPECT_EQ(R.SassMetrics, 0u);
  sys::fs::remove_directories(Dir);
}

TEST(RunDirectory, AnErrorIsKeptAndSaidTheSameEachTime) {
  std::string Dir = directoryWith({});
  write(Dir + "/emu-7.json", "{ not json");
  write(Dir + "/pcsamples-7.json", "[]");
  RunDirectory Run(Dir);
  Expected<const Truth &> T = Run.truth();
  ASSERT_FALSE(bool(T));
  std::string First = toString(T.takeError());
  EXPECT_NE(First.find("emu-7.json"), std::string::npos) << First;
  EXPECT_EQ(First.find('\n'), std::string::npos) << First;
  Expected<const Truth &> Again = Run.truth();
  ASSERT_FALSE(bool(Again));
  EXPECT_EQ(toString(Again.takeError()), First);
  Expected<const std::optional<PcSampleSet> &> S = Run.pcSamples();
  ASSERT_FALSE(bool(S));
  std::string Samples = toString(S.takeError());
  Expected<const std::optional<PcSampleSet> &> S2 = Run.pcSamples();
  ASSERT_FALSE(bool(S2));
  EXPECT_EQ(toString(S2.takeError()), Samples);
  // No profile: the one-line error, read (and said) once.
  for (int I = 0; I < 2; ++I) {
    Expected<const ProfileSet &> P = Run.profiles();
    ASSERT_FALSE(bool(P));
    EXPECT_NE(toString(P.takeError()).find("holds no profile-*.json"),
              std::string::npos);
  }
  EXPECT_EQ(Run.reads().Listings, 1u);
  EXPECT_EQ(Run.reads().Truth, 1u);
  EXPECT_EQ(Run.reads().PcSamples, 1u);
  EXPECT_EQ(Run.reads().Profiles, 1u);
  sys::fs::remove_directories(Dir);
}

TEST(RunDirectory, AMissingDirectoryCannotBeListed) {
  RunDirectory Run("/nonexistent/warpscope-run");
  EXPECT_TRUE(bool(Run.listError()));
  EXPECT_TRUE(Run.files(files::Truth).empty());
  Expected<const Truth &> T = Run.truth();
  ASSERT_FALSE(bool(T));
  EXPECT_NE(toString(T.takeError()).find("cannot be listed"),
            std::string::npos);
  Expected<const ProfileSet &> P = Run.profiles();
  ASSERT_FALSE(bool(P));
  EXPECT_NE(toString(P.takeError()).find("is not a profile directory"),
            std::string::npos);
  EXPECT_EQ(Run.reads().Listings, 1u);
}

} // namespace
