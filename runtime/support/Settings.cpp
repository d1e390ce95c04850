//===- Settings.cpp - Settings of the runtimes, from the environment ------===//

#include "warpscope/Support/Settings.h"
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>

using namespace warpscope::support;

namespace {
std::string shortest(double X) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%g", X);
  return Buf;
}
} // namespace

const char *warpscope::support::processEnvironment(const char *Name) {
  return std::getenv(Name);
}

const char *SettingsReader::value(const char *Name) const {
  const char *V = Get(Name);
  return V && *V ? V : nullptr;
}

std::string SettingsReader::text(const char *Name) const {
  const char *V = value(Name);
  return V ? V : "";
}

void SettingsReader::warn(const char *Name, const char *Value,
                          const std::string &What, const std::string &Instead) {
  Warnings.push_back(std::string(Name) + "='" + Value + "' is not " + What +
                     "; using " + Instead);
}

bool SettingsReader::flag(const char *Name, bool Default) {
  const char *V = value(Name);
  if (!V)
    return Default;
  for (const char *On : {"1", "on", "true", "yes"})
    if (!strcasecmp(V, On))
      return true;
  for (const char *Off : {"0", "off", "false", "no"})
    if (!strcasecmp(V, Off))
      return false;
  warn(Name, V, "1/0, on/off, true/false or yes/no", Default ? "1" : "0");
  return Default;
}

unsigned SettingsReader::choice(const char *Name,
                                std::initializer_list<const char *> Choices,
                                unsigned Default) {
  const char *V = value(Name);
  if (!V)
    return Default;
  std::string Listed;
  unsigned I = 0, N = unsigned(Choices.size());
  for (const char *C : Choices) {
    if (!std::string(V).compare(C))
      return I;
    Listed += (I == 0       ? "'"
               : I + 1 == N ? " or '"
                            : ", '") +
              std::string(C) + "'";
    ++I;
  }
  warn(Name, V, Listed, *(Choices.begin() + Default));
  return Default;
}

std::optional<long> SettingsReader::integer(const char *Name, long Min,
                                            long Max, const char *Fallback) {
  const char *V = value(Name);
  if (!V)
    return std::nullopt;
  // Digits only (strtol alone would take " 5" and "+5").
  const char *Digits = V + (*V == '-');
  bool Wellformed = *Digits && std::strspn(Digits, "0123456789") ==
                                   std::char_traits<char>::length(Digits);
  char *End = nullptr;
  errno = 0;
  long X = Wellformed ? std::strtol(V, &End, 10) : 0;
  if (Wellformed && !errno && X >= Min && X <= Max)
    return X;
  if (Fallback)
    warn(Name, V,
         "an integer in " + std::to_string(Min) + ".." + std::to_string(Max),
         Fallback);
  return std::nullopt;
}

double SettingsReader::number(const char *Name, double Min, double Max,
                              double Default) {
  const char *V = value(Name);
  if (!V)
    return Default;
  char *End = nullptr;
  double X = std::strtod(V, &End);
  if (End && !*End && std::isfinite(X) && X >= Min && X <= Max)
    return X;
  warn(Name, V, "a number in " + shortest(Min) + ".." + shortest(Max),
       shortest(Default));
  return Default;
}
