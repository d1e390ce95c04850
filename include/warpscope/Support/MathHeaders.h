//===- MathHeaders.h - Which headers hold CUDA's math library ---*- C++ -*-===//
//
// The files whose code is CUDA's math library (clang's wrappers, libdevice,
// the toolkit's math and half-precision headers). One list for the device
// pass, which records where such code was moved onto a user's line
// (-warpscope-inlined-lines), and the advisor's fast-math matcher.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_SUPPORT_MATHHEADERS_H
#define WARPSCOPE_SUPPORT_MATHHEADERS_H

#include <string_view>

namespace warpscope {

/// Whether the file at Path (any directory) is a CUDA math library header.
inline bool isMathLibraryHeader(std::string_view Path) {
  size_t Slash = Path.rfind('/');
  std::string_view Name =
      Slash == std::string_view::npos ? Path : Path.substr(Slash + 1);
  auto Starts = [&](std::string_view P) {
    return Name.substr(0, P.size()) == P;
  };
  return Starts("__clang_cuda_math") ||
         Starts("__clang_cuda_device_functions") ||
         Starts("__clang_cuda_libdevice") || Starts("math_functions") ||
         Starts("device_functions") ||
         Name.find("libdevice") != std::string_view::npos ||
         Starts("cuda_fp16") || Starts("cuda_bf16");
}

} // namespace warpscope

#endif // WARPSCOPE_SUPPORT_MATHHEADERS_H
