//===- MathHeaders.h - Which headers are the toolkit's ----------*- C++ -*-===//
//
// The headers whose inlined code belongs on the user's call site (clang's,
// the CUDA toolkit's, the system's): one rule for the device pass
// (-warpscope-inlined-lines, clang's code) and the PTX readers (nvcc's
// `.loc ... inlined_at`, Support/PtxLoc.h). Among them, the files whose code
// is CUDA's math library (clang's wrappers, libdevice, the toolkit's math
// and half-precision headers): one list for the device pass, which records
// where such code was moved onto a user's line, and the advisor's fast-math
// matcher.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_SUPPORT_MATHHEADERS_H
#define WARPSCOPE_SUPPORT_MATHHEADERS_H

#include <string_view>
#include <vector>

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

/// Whether Path (absolute) is a header of clang's resource directory
/// (`.../clang/<version>/include/`), of a CUDA toolkit (`.../cuda*/include/`,
/// `.../cuda*/targets/<triple>/include/`) or of the system (`/usr/include/`,
/// `/usr/lib/gcc/`). `.` and `..` parts count as the path means them (nvcc
/// writes `/usr/local/cuda/bin/../targets/x86_64-linux/include/...`).
inline bool isToolkitHeader(std::string_view Path) {
  std::vector<std::string_view> Parts;
  for (size_t At = 0; At <= Path.size();) {
    size_t Slash = Path.find('/', At);
    size_t End = Slash == std::string_view::npos ? Path.size() : Slash;
    std::string_view Part = Path.substr(At, End - At);
    if (Part == "..") {
      if (!Parts.empty())
        Parts.pop_back();
    } else if (!Part.empty() && Part != ".") {
      Parts.push_back(Part);
    }
    At = End + 1;
  }
  if (Path.substr(0, 1) == "/" && Parts.size() >= 3 && Parts[0] == "usr" &&
      (Parts[1] == "include" ||
       (Parts.size() >= 4 && Parts[1] == "lib" && Parts[2] == "gcc")))
    return true;
  auto IsVersion = [](std::string_view N) {
    return !N.empty() && N.front() >= '0' && N.front() <= '9' &&
           N.find_first_not_of("0123456789.") == std::string_view::npos;
  };
  // The last part is the file's own name.
  for (size_t I = 1; I + 1 < Parts.size(); ++I) {
    if (Parts[I] != "include")
      continue;
    if (I >= 2 && Parts[I - 2] == "clang" && IsVersion(Parts[I - 1]))
      return true;
    if (Parts[I - 1].substr(0, 4) == "cuda")
      return true;
    if (I >= 3 && Parts[I - 2] == "targets" &&
        Parts[I - 3].substr(0, 4) == "cuda")
      return true;
  }
  return false;
}

} // namespace warpscope

#endif // WARPSCOPE_SUPPORT_MATHHEADERS_H
