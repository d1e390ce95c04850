//===- Html.h - Text into HTML --------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_HTML_H
#define WARPSCOPE_DRIVER_HTML_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"
#include <cstdint>
#include <string>

namespace warpscope {

/// S with <, >, & and " escaped, for element text and quoted attributes.
inline std::string escapeHtml(llvm::StringRef S) {
  std::string Out;
  for (char C : S)
    switch (C) {
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '&':
      Out += "&amp;";
      break;
    case '"':
      Out += "&quot;";
      break;
    default:
      Out += C;
    }
  return Out;
}

/// A table cell naming a source line: "file.cu:12", the full path in its
/// title (a narrow column would break a long path anywhere).
inline std::string sourceLineCell(llvm::StringRef File, unsigned Line) {
  if (File.empty())
    return "<td>(no line info)</td>";
  return "<td class=\"loc\" title=\"" + escapeHtml(File) + "\">" +
         escapeHtml(llvm::sys::path::filename(File)) + ":" +
         std::to_string(Line) + "</td>";
}

/// N with thousands separators: "1,234,567".
inline std::string withCommas(uint64_t N) {
  std::string S = std::to_string(N), Out;
  for (size_t I = 0; I < S.size(); ++I) {
    if (I && (S.size() - I) % 3 == 0)
      Out += ',';
    Out += S[I];
  }
  return Out;
}

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_HTML_H
