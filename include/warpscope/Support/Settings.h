//===- Settings.h - Settings of the runtimes, from the environment --------===//
//
// Everything loaded into the user's process (the host runtime, the
// collector, the emulator and its libcudart) takes its settings from
// WARPSCOPE_* environment variables, because `warpscope run` and the user
// reach it no other way. This is the one parser of those values, so that
// every variable accepts the same spellings and a bad value gives the same
// kind of one-line warning: NAME='value' is not <what>; using <default>.
// No LLVM (runtime layer).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_SUPPORT_SETTINGS_H
#define WARPSCOPE_SUPPORT_SETTINGS_H

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::support {

/// How a reader looks a variable up: getenv in the runtimes, a map in tests.
using EnvLookup = const char *(*)(const char *);

/// std::getenv.
const char *processEnvironment(const char *Name);

/// Reads typed values; an unset or empty variable gives the default without
/// a word, a malformed one gives the default and a warning.
class SettingsReader {
public:
  explicit SettingsReader(EnvLookup Get = processEnvironment) : Get(Get) {}

  /// 1/0, on/off, true/false, yes/no (any case).
  bool flag(const char *Name, bool Default);
  /// The index of the value in Choices (exact spelling), else Default.
  unsigned choice(const char *Name, std::initializer_list<const char *> Choices,
                  unsigned Default);
  /// A decimal integer in [Min, Max], else nullopt. A bad value warns unless
  /// Fallback is null; Fallback says what is used instead.
  std::optional<long> integer(const char *Name, long Min, long Max,
                              const char *Fallback);
  /// A decimal number in [Min, Max] (e.g. seconds), else Default.
  double number(const char *Name, double Min, double Max, double Default);
  /// The value as written; empty when unset.
  std::string text(const char *Name) const;

  /// One line per malformed variable, in the order they were read.
  const std::vector<std::string> &warnings() const { return Warnings; }
  /// The first warning, or "".
  std::string firstWarning() const {
    return Warnings.empty() ? std::string() : Warnings.front();
  }

private:
  const char *value(const char *Name) const;
  void warn(const char *Name, const char *Value, const std::string &What,
            const std::string &Instead);

  EnvLookup Get;
  std::vector<std::string> Warnings;
};

} // namespace warpscope::support

#endif // WARPSCOPE_SUPPORT_SETTINGS_H
