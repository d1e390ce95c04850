//===- CubinLines.cpp - ELF64 + DWARF .debug_line reader ------------------===//

#include "CubinLines.h"
#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <tuple>

using namespace warpscope::cubin;

namespace {

constexpr uint32_t ShtSymtab = 2, ShtRela = 4;

/// Bounds-checked little-endian cursor; the first overrun sets Bad and every
/// later read returns 0, so callers check once per unit, not per read.
struct Cursor {
  const uint8_t *Data;
  size_t Size, Pos = 0;
  bool Bad = false;

  bool need(size_t N) {
    if (Bad || N > Size || Pos > Size - N)
      Bad = true;
    return !Bad;
  }
  uint64_t fixed(unsigned Bytes) {
    if (!need(Bytes))
      return 0;
    uint64_t V = 0;
    for (unsigned I = 0; I < Bytes; ++I)
      V |= uint64_t(Data[Pos + I]) << (8 * I);
    Pos += Bytes;
    return V;
  }
  uint8_t u8() { return uint8_t(fixed(1)); }
  uint64_t uleb() {
    uint64_t V = 0;
    for (unsigned Shift = 0;; Shift += 7) {
      if (!need(1))
        return 0;
      uint8_t B = Data[Pos++];
      if (Shift < 64)
        V |= uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return V;
    }
  }
  int64_t sleb() {
    int64_t V = 0;
    unsigned Shift = 0;
    uint8_t B = 0;
    do {
      if (!need(1))
        return 0;
      B = Data[Pos++];
      if (Shift < 64)
        V |= int64_t(B & 0x7f) << Shift;
      Shift += 7;
    } while (B & 0x80);
    if (Shift < 64 && (B & 0x40))
      V |= -(int64_t(1) << Shift);
    return V;
  }
  std::string cstr() {
    const void *End =
        Pos < Size ? std::memchr(Data + Pos, 0, Size - Pos) : nullptr;
    if (!End) {
      Bad = true;
      return "";
    }
    std::string S(reinterpret_cast<const char *>(Data + Pos),
                  static_cast<const uint8_t *>(End) - (Data + Pos));
    Pos += S.size() + 1;
    return S;
  }
  void skip(uint64_t N) {
    if (need(N))
      Pos += N;
  }
};

struct Section {
  std::string Name;
  uint64_t NameOffset = 0;
  uint32_t Type = 0, Link = 0, Info = 0;
  uint64_t Offset = 0, Size = 0, EntSize = 0;
};

struct Elf {
  const uint8_t *Data;
  size_t Size;
  std::vector<Section> Sections;

  Cursor at(const Section &S) const { return Cursor{Data + S.Offset, S.Size}; }
  const Section *find(const char *Name) const {
    for (const Section &S : Sections)
      if (S.Name == Name)
        return &S;
    return nullptr;
  }
};

bool parseElf(const uint8_t *Data, size_t Size, Elf &E, std::string &Error) {
  E.Data = Data;
  E.Size = Size;
  if (Size < 64 || std::memcmp(Data,
                               "\x7f"
                               "ELF",
                               4)) {
    Error = "not an ELF file";
    return false;
  }
  if (Data[4] != 2 || Data[5] != 1) {
    Error = "not a 64-bit little-endian ELF file (cubins are)";
    return false;
  }
  Cursor H{Data, Size};
  H.Pos = 0x28;
  uint64_t ShOff = H.fixed(8);
  H.Pos = 0x3a;
  uint64_t ShEntSize = H.fixed(2), ShNum = H.fixed(2), ShStrNdx = H.fixed(2);
  if (ShEntSize != 64 || ShOff > Size || ShNum > (Size - ShOff) / 64) {
    Error = "truncated or corrupt: section header table lies outside the file";
    return false;
  }
  for (uint64_t I = 0; I < ShNum; ++I) {
    Cursor C{Data + ShOff + I * 64, 64};
    Section S;
    S.NameOffset = C.fixed(4);
    S.Type = uint32_t(C.fixed(4));
    C.skip(16); // flags, address
    S.Offset = C.fixed(8);
    S.Size = C.fixed(8);
    S.Link = uint32_t(C.fixed(4));
    S.Info = uint32_t(C.fixed(4));
    C.skip(8); // alignment
    S.EntSize = C.fixed(8);
    bool NoBits = S.Type == 8;
    if (!NoBits && (S.Offset > Size || S.Size > Size - S.Offset)) {
      Error = "truncated or corrupt: section " + std::to_string(I) +
              " lies outside the file";
      return false;
    }
    if (NoBits)
      S.Size = 0;
    E.Sections.push_back(S);
  }
  if (ShStrNdx >= E.Sections.size()) {
    Error = "corrupt: no section name table";
    return false;
  }
  const Section &Names = E.Sections[ShStrNdx];
  for (Section &S : E.Sections) {
    Cursor C = E.at(Names);
    C.Pos = S.NameOffset;
    S.Name = C.cstr();
    if (C.Bad) {
      Error = "corrupt: a section name lies outside the name table";
      return false;
    }
  }
  return true;
}

/// Offset in .debug_line of a DW_LNE_set_address operand -> symbol + addend.
using Relocations = std::map<uint64_t, std::pair<std::string, int64_t>>;

bool readRelocations(const Elf &E, size_t LineIndex, Relocations &Out,
                     std::string &Error) {
  for (const Section &R : E.Sections) {
    if (R.Type != ShtRela || R.Info != LineIndex)
      continue;
    if (R.Link >= E.Sections.size() || E.Sections[R.Link].Type != ShtSymtab ||
        E.Sections[R.Link].Link >= E.Sections.size()) {
      Error = "corrupt: " + R.Name + " has no symbol table";
      return false;
    }
    const Section &Symtab = E.Sections[R.Link];
    const Section &Strtab = E.Sections[Symtab.Link];
    Cursor C = E.at(R);
    while (C.Pos + 24 <= C.Size) {
      uint64_t Offset = C.fixed(8), Info = C.fixed(8);
      int64_t Addend = int64_t(C.fixed(8));
      uint64_t Sym = Info >> 32;
      Cursor S = E.at(Symtab);
      S.Pos = Sym * 24;
      uint64_t NameOff = S.fixed(4);
      Cursor N = E.at(Strtab);
      N.Pos = NameOff;
      std::string Name = N.cstr();
      if (S.Bad || N.Bad) {
        Error = "corrupt: " + R.Name + " names a symbol outside the table";
        return false;
      }
      Out[Offset] = {Name, Addend};
    }
  }
  return true;
}

struct Header {
  unsigned Version = 0, AddressSize = 8;
  uint8_t MinInst = 1, LineBase = 0, LineRange = 1, OpcodeBase = 1;
  std::vector<uint8_t> OpcodeLengths;
  std::vector<std::string> Files; ///< index as the line program uses it
};

std::string joinPath(const std::string &Dir, const std::string &File) {
  if (Dir.empty() || File.empty() || File[0] == '/')
    return File;
  return Dir.back() == '/' ? Dir + File : Dir + "/" + File;
}

/// One DWARF 5 entry-format field; only forms producers use for line tables.
bool readForm(Cursor &C, uint64_t Form, bool Dwarf64, const Elf &E,
              std::string *Str, uint64_t *Num) {
  switch (Form) {
  case 0x08: // string
    *Str = C.cstr();
    return true;
  case 0x1f:   // line_strp
  case 0x0e: { // strp
    uint64_t Off = C.fixed(Dwarf64 ? 8 : 4);
    const Section *S = E.find(Form == 0x1f ? ".debug_line_str" : ".debug_str");
    if (!S)
      return false;
    Cursor SC = E.at(*S);
    SC.Pos = Off;
    *Str = SC.cstr();
    return !SC.Bad;
  }
  case 0x0f: // udata
    *Num = C.uleb();
    return true;
  case 0x0b: // data1
    *Num = C.fixed(1);
    return true;
  case 0x05: // data2
    *Num = C.fixed(2);
    return true;
  case 0x06: // data4
    *Num = C.fixed(4);
    return true;
  case 0x07: // data8
    *Num = C.fixed(8);
    return true;
  case 0x1e: // data16 (MD5)
    C.skip(16);
    return true;
  case 0x09: // block
    C.skip(C.uleb());
    return true;
  default:
    return false;
  }
}

bool readV5Entries(Cursor &C, bool Dwarf64, const Elf &E,
                   const std::vector<std::string> &Dirs,
                   std::vector<std::string> &Out) {
  uint8_t FormatCount = C.u8();
  std::vector<std::pair<uint64_t, uint64_t>> Format;
  for (unsigned I = 0; I < FormatCount; ++I) {
    uint64_t Kind = C.uleb();
    Format.push_back({Kind, C.uleb()});
  }
  uint64_t Count = C.uleb();
  for (uint64_t I = 0; I < Count && !C.Bad; ++I) {
    std::string Name;
    uint64_t DirIndex = 0;
    for (auto [Kind, Form] : Format) {
      std::string S;
      uint64_t N = 0;
      if (!readForm(C, Form, Dwarf64, E, &S, &N))
        return false;
      if (Kind == 1) // DW_LNCT_path
        Name = S;
      else if (Kind == 2) // DW_LNCT_directory_index
        DirIndex = N;
    }
    Out.push_back(DirIndex < Dirs.size() ? joinPath(Dirs[DirIndex], Name)
                                         : Name);
  }
  return !C.Bad;
}

bool readHeader(Cursor &C, bool Dwarf64, const Elf &E, Header &H) {
  H.Version = unsigned(C.fixed(2));
  if (H.Version < 2 || H.Version > 5)
    return false;
  if (H.Version >= 5) {
    H.AddressSize = C.u8();
    C.skip(1); // segment selector size
  }
  uint64_t HeaderLength = C.fixed(Dwarf64 ? 8 : 4);
  size_t ProgramStart = C.Pos + HeaderLength;
  H.MinInst = C.u8();
  if (H.Version >= 4)
    C.skip(1); // maximum operations per instruction (VLIW only)
  C.skip(1);   // default_is_stmt
  H.LineBase = C.u8();
  H.LineRange = C.u8();
  H.OpcodeBase = C.u8();
  if (H.LineRange == 0 || H.OpcodeBase == 0)
    return false;
  for (unsigned I = 1; I < H.OpcodeBase; ++I)
    H.OpcodeLengths.push_back(C.u8());
  if (H.Version >= 5) {
    std::vector<std::string> Dirs;
    if (!readV5Entries(C, Dwarf64, E, {}, Dirs) ||
        !readV5Entries(C, Dwarf64, E, Dirs, H.Files))
      return false;
  } else {
    // Directory 0 is the compile directory, which .debug_line does not hold.
    std::vector<std::string> Dirs{""};
    for (std::string D = C.cstr(); !D.empty() && !C.Bad; D = C.cstr())
      Dirs.push_back(D);
    H.Files.push_back(""); // file numbers start at 1
    for (std::string F = C.cstr(); !F.empty() && !C.Bad; F = C.cstr()) {
      uint64_t Dir = C.uleb();
      C.uleb(); // modification time
      C.uleb(); // length
      H.Files.push_back(Dir < Dirs.size() ? joinPath(Dirs[Dir], F) : F);
    }
  }
  if (C.Bad || ProgramStart > C.Size)
    return false;
  C.Pos = ProgramStart;
  return true;
}

struct State {
  uint64_t Address = 0;
  uint64_t File = 1, Line = 1, Column = 0;
  std::string Function;
  int64_t Base = 0; ///< relocation addend for the current sequence
};

/// Runs one unit's line program (Cursor over the unit, positioned at the
/// program), appending rows.
bool runProgram(Cursor &C, size_t SectionBase, const Header &H,
                const Relocations &Relocs, std::vector<LineRow> &Rows) {
  State S;
  if (H.Version >= 5)
    S.File = 0;
  auto emit = [&](bool End) {
    LineRow R;
    R.Function = S.Function;
    R.Offset = uint64_t(S.Base) + S.Address;
    R.File = S.File < H.Files.size() ? H.Files[S.File] : "";
    R.Line = unsigned(S.Line);
    R.Column = unsigned(S.Column);
    R.EndSequence = End;
    Rows.push_back(std::move(R));
  };
  while (C.Pos < C.Size && !C.Bad) {
    uint8_t Op = C.u8();
    if (Op >= H.OpcodeBase) {
      unsigned Adj = Op - H.OpcodeBase;
      S.Address += uint64_t(Adj / H.LineRange) * H.MinInst;
      S.Line += int64_t(int8_t(H.LineBase)) + Adj % H.LineRange;
      emit(false);
      continue;
    }
    switch (Op) {
    case 0: { // extended
      uint64_t Len = C.uleb();
      size_t End = C.Pos + Len;
      if (Len == 0 || !C.need(Len))
        return false;
      uint8_t Sub = C.u8();
      if (Sub == 1) { // end_sequence
        emit(true);
        S = State();
        if (H.Version >= 5)
          S.File = 0;
      } else if (Sub == 2) { // set_address
        size_t OperandAt = SectionBase + C.Pos;
        S.Address = C.fixed(unsigned(std::min<uint64_t>(Len - 1, 8)));
        auto It = Relocs.find(OperandAt);
        if (It != Relocs.end()) {
          S.Function = It->second.first;
          S.Base = It->second.second;
        }
      }
      C.Pos = End; // define_file, set_discriminator, vendor: skipped
      break;
    }
    case 1: // copy
      emit(false);
      break;
    case 2: // advance_pc
      S.Address += C.uleb() * H.MinInst;
      break;
    case 3: // advance_line
      S.Line += C.sleb();
      break;
    case 4: // set_file
      S.File = C.uleb();
      break;
    case 5: // set_column
      S.Column = C.uleb();
      break;
    case 8: // const_add_pc
      S.Address += uint64_t((255 - H.OpcodeBase) / H.LineRange) * H.MinInst;
      break;
    case 9: // fixed_advance_pc
      S.Address += C.fixed(2);
      break;
    default: // negate_stmt, basic_block, prologue/epilogue, isa, unknown
      for (unsigned I = 0; I < H.OpcodeLengths[Op - 1]; ++I)
        C.uleb();
      break;
    }
  }
  return !C.Bad;
}

} // namespace

const LineRow *LineTable::lookup(const std::string &Function,
                                 uint64_t Offset) const {
  auto It = std::upper_bound(
      Rows.begin(), Rows.end(), std::make_pair(&Function, Offset),
      [](const std::pair<const std::string *, uint64_t> &K, const LineRow &R) {
        return std::tie(*K.first, K.second) < std::tie(R.Function, R.Offset);
      });
  if (It == Rows.begin())
    return nullptr;
  const LineRow &R = *std::prev(It);
  if (R.Function != Function || R.EndSequence)
    return nullptr;
  return &R;
}

bool warpscope::cubin::readLineTable(const uint8_t *Data, size_t Size,
                                     LineTable &Out, std::string &Error) {
  Out.Rows.clear();
  Elf E;
  if (!parseElf(Data, Size, E, Error))
    return false;
  const Section *Line = E.find(".debug_line");
  if (!Line) {
    Error = "has no .debug_line section; compile with -lineinfo (nvcc) or "
            "-gline-tables-only (clang)";
    return false;
  }
  Relocations Relocs;
  if (!readRelocations(E, size_t(Line - E.Sections.data()), Relocs, Error))
    return false;
  Cursor All = E.at(*Line);
  while (All.Pos < All.Size) {
    size_t UnitStart = All.Pos;
    uint64_t Length = All.fixed(4);
    bool Dwarf64 = Length == 0xffffffff;
    if (Dwarf64)
      Length = All.fixed(8);
    if (All.Bad || Length > All.Size - All.Pos) {
      Error = "truncated or corrupt .debug_line: unit at offset " +
              std::to_string(UnitStart) + " runs past the section";
      return false;
    }
    Cursor Unit{All.Data + All.Pos, size_t(Length)};
    size_t UnitBase = All.Pos;
    All.Pos += Length;
    Header H;
    if (!readHeader(Unit, Dwarf64, E, H)) {
      Error = "corrupt .debug_line: bad or unsupported header at offset " +
              std::to_string(UnitStart);
      return false;
    }
    if (!runProgram(Unit, UnitBase, H, Relocs, Out.Rows)) {
      Error = "truncated or corrupt .debug_line program at offset " +
              std::to_string(UnitStart);
      return false;
    }
  }
  std::stable_sort(
      Out.Rows.begin(), Out.Rows.end(), [](const LineRow &A, const LineRow &B) {
        return std::tie(A.Function, A.Offset) < std::tie(B.Function, B.Offset);
      });
  return true;
}

bool warpscope::cubin::readLineTableFile(const std::string &Path,
                                         LineTable &Out, std::string &Error) {
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    Error = Path + ": cannot read";
    return false;
  }
  std::vector<uint8_t> Bytes((std::istreambuf_iterator<char>(In)),
                             std::istreambuf_iterator<char>());
  if (!readLineTable(Bytes.data(), Bytes.size(), Out, Error)) {
    Error = Path + ": " + Error;
    return false;
  }
  return true;
}
