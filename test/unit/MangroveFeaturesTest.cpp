//===- MangroveFeaturesTest.cpp - GPU Mangrove's groups and features ------===//
//
// The expected groups are the ones GPU Mangrove's feature processing
// printed for the opcodes of its own data set (its notebook's grouping
// output), plus the opcodes clang 22 emits; the features are worked out by
// hand from its formulas.
//
//===----------------------------------------------------------------------===//

#include "MangroveFeatures.h"
#include "gtest/gtest.h"

using namespace warpscope::mangrove;

namespace {

struct Case {
  const char *Opcode, *Group;
};

TEST(MangroveGroups, AsItsProcessingPrintedThem) {
  const Case Cases[] = {
      {"ld.param.u64", "ld.param.64"},
      {"ld.param.f32", "ld.param.32"},
      {"cvt.s64.s32", "cvt.32"},
      {"cvt.u64.u32", "cvt.32"},
      {"cvt.u32.u64", "cvt.64"},
      {"cvt.rn.f32.f64", "cvt.64"},
      {"cvta.to.global.u64", "cvt.64"},
      {"cvt.u32.u16", "cvt.16"},
      {"add.s64", "int.64"},
      {"mul.lo.s64", "int.64"},
      {"mul.wide.u32", "int.32"},
      {"mad.lo.cc.u32", "int.32"},
      {"madc.hi.u32", "int.32"},
      {"mul24.lo.s32", "int.32"},
      {"add.s16", "int.16"},
      {"setp.le.u64", "comp_sel.64"},
      {"setp.neu.f64", "comp_sel.64"},
      {"selp.f64", "comp_sel.64"},
      {"setp.eq.b32", "comp_sel.32"},
      {"selp.b32", "comp_sel.32"},
      {"setp.eq.b16", "comp_sel.16"},
      {"bra", "control"},
      {"bra.uni", "control"},
      {"ret", "control"},
      {"call.uni", "control"},
      {"mov.u32", "mov.32"},
      {"mov.pred", "mov.32"},
      {"mov.f64", "mov.64"},
      {"mov.u16", "mov.16"},
      {"or.pred", "logic.32"},
      {"not.pred", "logic.32"},
      {"shr.u32", "logic.32"},
      {"shl.b64", "logic.64"},
      {"and.b16", "logic.16"},
      {"ld.global.f32", "ld.global.32"},
      {"ld.f32", "ld.global.32"},
      {"ld.global.v2.f32", "ld.global.64"},
      {"ld.global.v4.u16", "ld.global.64"},
      {"ld.global.v4.f32", "ld.global.128"},
      {"ld.global.u8", "ld.global.8"},
      {"st.global.v4.u8", "st.global.32"},
      {"st.u32", "st.global.32"},
      {"st.global.v2.f64", "st.global.128"},
      {"ld.volatile.shared.f32", "ld.shared.32"},
      {"st.volatile.shared.u64", "st.shared.64"},
      {"ld.const.v2.u32", "ld.const.64"},
      {"ld.local.v4.u8", "ld.local.32"},
      {"st.param.b64", "st.param.64"},
      {"mul.rn.f32", "float.32"},
      {"div.rn.f32", "float.32"},
      {"rcp.approx.ftz.f64", "float.64"},
      {"abs.f32", "float.32"},
      {"sqrt.rn.f32", "float.special.32"},
      {"rsqrt.approx.f32", "float.special.32"},
      {"ex2.approx.ftz.f32", "float.special.32"},
      {"sqrt.rn.f64", "float.special.64"},
      {"atom.global.add.u32", "atom.global.32"},
      {"atom.global.max.u32", "atom.global.32"},
      {"atom.shared.or.b32", "atom.shared.32"},
      {"bar.sync", "bar.sync"},
      {"clz.b32", "misc"},
      // clang 22's spellings.
      {"ld.global.b32", "ld.global.32"},
      {"ld.global.v4.b32", "ld.global.128"},
      {"ld.param.b64", "ld.param.64"},
      {"mov.b32", "mov.32"},
      {"mul.f32", "float.32"},
      {"fma.rn.f32", "float.32"},
      {"neg.f64", "float.64"},
      {"atom.global.add.f32", "atom.global.32"},
      // What its expressions do not know falls in misc, as there.
      {"ld.global.nc.f32", "misc"},
      {"popc.b32", "misc"},
      {"prmt.b32", "misc"},
      {"red.global.add.u32", "misc"},
      {"barrier.sync.aligned", "misc"},
      {"tanh.approx.f32", "misc"},
  };
  for (const Case &C : Cases)
    EXPECT_EQ(groupOf(C.Opcode), C.Group) << C.Opcode;
}

TEST(MangroveGroups, TableHasItsFiftyColumns) {
  EXPECT_EQ(tableGroups().size(), 50u);
  EXPECT_STREQ(tableGroups().front(), "float.32");
  EXPECT_STREQ(tableGroups().back(), "float.special.64");
}

/// A launch of 2 x 64 threads, 2 x 2 x 1 ... worked out by hand.
Launch handLaunch() {
  Launch L;
  L.Name = "_Z1kPf";
  L.Grid[0] = 2;
  L.Block[0] = 64;
  L.SharedBytes = 16;
  addOpcode(L, "ld.param.b64", 128);       // 1024 param bytes
  addOpcode(L, "ld.global.v4.b32", 100);   // 1600 bytes
  addOpcode(L, "st.global.b32", 100);      // 400 bytes
  addOpcode(L, "atom.global.add.u32", 10); // 40 bytes
  addOpcode(L, "ld.shared.b32", 50);       // 200 bytes
  addOpcode(L, "st.shared.v2.b32", 5);     // 40 bytes
  addOpcode(L, "fma.rn.f32", 300);         // arithmetic
  addOpcode(L, "add.s32", 200);            // arithmetic
  addOpcode(L, "mov.u32", 100);            // arithmetic
  addOpcode(L, "setp.lt.s32", 60);         // arithmetic
  addOpcode(L, "cvta.to.global.u64", 40);  // arithmetic
  addOpcode(L, "and.pred", 7);             // logic
  addOpcode(L, "sqrt.rn.f32", 3);          // special
  addOpcode(L, "bra", 20);                 // control
  addOpcode(L, "bar.sync", 128);           // sync
  addOpcode(L, "popc.b32", 9);             // misc: counted in total only
  addOpcode(L, "add.f16", 11);             // float.16: in no column at all
  L.TimeMs = 0.5;
  return L;
}

TEST(MangroveFeatures, SamplesRowByHand) {
  EXPECT_EQ(samplesHeader(),
            "bench,app,dataset,name,threads_per_CTA,CTAs,total_instructions,"
            "special_operations,logic_operations,control_operations,"
            "arithmetic_operations,sync_operations,global_memory_volume,"
            "param_memory_volume,shared_memory_volume,arithmetic_intensity,"
            "time\n");
  // total: every count but float.16's (11) = 1260; arithmetic 700;
  // global 1600 + 400 + 40; param 1024; shared 240; 700 / 3064.
  EXPECT_EQ(samplesRow("b", "a", "d", handLaunch()),
            "b,a,d,_Z1kPf,64,2,1260,3,7,20,700,128,2040,1024,240,"
            "0.22845953002610966,500.000\n");
}

TEST(MangroveFeatures, GroupsRowByHand) {
  std::string Row = groupsRow("b", "a", "d", 7, handLaunch());
  EXPECT_EQ(Row.substr(0, Row.find(",1260,")),
            "b,a,d,7,_Z1kPf,2,1,1,64,1,1,16,2,64,128,1600,400,200,40,1024,0,"
            "0,0,0");
  // float.32 first, float.special.64 last; misc holds popc.
  EXPECT_EQ(Row.substr(Row.find(",1260,") + 6, 4), "300,");
  EXPECT_NE(Row.find(",9,"), std::string::npos);
}

TEST(MangroveFeatures, IntensityWithNothingMovedIsAsPandasHasIt) {
  Launch L;
  addOpcode(L, "add.s32", 4);
  std::string Row = samplesRow("b", "a", "d", L);
  EXPECT_NE(Row.find(",inf,"), std::string::npos) << Row;
  Launch Empty;
  EXPECT_NE(samplesRow("b", "a", "d", Empty).find(",nan,"), std::string::npos);
}

} // namespace
