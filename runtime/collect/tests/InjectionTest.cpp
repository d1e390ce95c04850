//===- InjectionTest.cpp - The injected library without a GPU -------------===//
//
// The driver calls InitializeInjection; with no GPU (or no driver) CUPTI
// calls fail and the collector must say so in one line and return, never
// crash. On a GPU machine the same call succeeds; either way it returns 1.
//
//===----------------------------------------------------------------------===//

#include "gtest/gtest.h"
#include <cstdlib>
#include <dlfcn.h>

namespace {

TEST(Injection, InitializeInjectionReturnsWithoutAGpu) {
  void *Lib = dlopen(WARPSCOPE_COLLECT_LIB, RTLD_NOW | RTLD_LOCAL);
  if (!Lib)
    GTEST_SKIP() << "cannot load the collector here: " << dlerror();
  auto *Init = reinterpret_cast<int (*)()>(dlsym(Lib, "InitializeInjection"));
  ASSERT_NE(Init, nullptr) << "InitializeInjection must be exported";
  char Tmpl[] = "/tmp/wsinjXXXXXX";
  ASSERT_NE(mkdtemp(Tmpl), nullptr);
  setenv("WARPSCOPE_OUT", Tmpl, 1);
  setenv("WARPSCOPE_SAMPLING_PERIOD", "99", 1); // bad: a warning, no failure
  EXPECT_EQ(Init(), 1);
  EXPECT_EQ(Init(), 1); // the driver may call it once per cuInit
}

} // namespace
