//===- Lexer.h - PTX tokens and literal values ----------------------------===//
//
// Private to the PTX parser. The lexer turns PTX text into tokens (and the
// "ws:" probe markers) and turns literal text, in every PTX syntax (decimal,
// octal, binary, hex, 0f/0d float bit patterns, decimal floats), into the bits
// an operand or an initializer holds.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_LEXER_H
#define WARPSCOPE_EMU_CORE_LEXER_H

#include "Ptx.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace warpscope::emu::core::parser {

/// Malformed PTX: parsePtx reports it as "PTX line <Line>: <what>".
struct ParseError : std::runtime_error {
  uint32_t Line;
  ParseError(uint32_t L, const std::string &M)
      : std::runtime_error(M), Line(L) {}
};

enum TokKind : uint8_t { TkIdent, TkNum, TkStr, TkPunct, TkMarker, TkEnd };
struct Token {
  TokKind K;
  std::string Text;
  uint32_t Line;
  size_t Off = 0; ///< identifiers: where in the text (a .loc's rest is read
                  ///< from there); 0 for the other kinds
};

/// The whole text as tokens, ending in TkEnd. Comments are dropped, except
/// "// ws:..." markers; a probe's %ws_ register declaration adds its marker
/// after the declaration's ';'.
std::vector<Token> tokenize(const std::string &S);

/// An integer literal (hex, octal, binary, decimal; optional U suffix).
/// False when S is not one.
bool parseIntLit(const std::string &S, int64_t &V);

/// The bits of an instruction operand's literal in a Context-typed operand
/// (Neg: written with a leading '-'). False when an integer literal is bad.
bool operandLiteralBits(const std::string &L, Ty Context, bool Neg,
                        uint64_t &Bits);

/// The bits of one element of a T-typed variable's initializer. False when an
/// integer literal is bad.
bool initializerLiteralBits(const std::string &L, Ty T, bool Neg,
                            uint64_t &Bits);

} // namespace warpscope::emu::core::parser

#endif
