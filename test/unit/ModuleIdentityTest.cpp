//===- ModuleIdentityTest.cpp - Module ids are stable
//----------------------===//

#include "ModuleIdentity.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace warpscope;

TEST(ModuleIdentity, Fnv1aMatchesReferenceVectors) {
  // Published FNV-1a 64-bit test vectors.
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ULL);
}

TEST(ModuleIdentity, SameSourceSameIdDifferentSourceDifferentId) {
  LLVMContext Ctx;
  Module Device("a", Ctx), Host("b", Ctx), Other("c", Ctx);
  Device.setSourceFileName("k.cu");
  Host.setSourceFileName("k.cu");
  Other.setSourceFileName("j.cu");
  std::string Id = moduleId(Device);
  EXPECT_EQ(Id.size(), 16u);
  EXPECT_EQ(Id.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(Id, moduleId(Host));
  EXPECT_NE(Id, moduleId(Other));
}
