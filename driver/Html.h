//===- Html.h - Text into HTML --------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_HTML_H
#define WARPSCOPE_DRIVER_HTML_H

#include "llvm/ADT/StringRef.h"
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

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_HTML_H
